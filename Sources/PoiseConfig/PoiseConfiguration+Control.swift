extension PoiseConfiguration {
    /// One PID's keys, as written (units of the loop it closes).
    public struct PID: Equatable, Sendable {
        public var kp: Double
        public var ki: Double
        public var kd: Double
        /// Hz; 0 for no derivative filter.
        public var derivativeCutoffHz: Double
        public var outputLimit: Double
        public var integralLimit: Double

        init(_ v: ConfigTable, _ path: String) {
            kp = v.number("\(path).kp")
            ki = v.number("\(path).ki")
            kd = v.number("\(path).kd")
            derivativeCutoffHz = v.number("\(path).d_cutoff_hz")
            outputLimit = v.number("\(path).output_limit")
            integralLimit = v.number("\(path).integral_limit")
        }
    }

    /// `controller`.
    public struct Controller: Equatable, Sendable {
        public enum Kind: String, CaseIterable, Sendable {
            case none, balance
            case quadX = "quad_x", quadPlus = "quad_plus"
        }
        public var kind: Kind
        public var balance: Balance
        public var quad: Quad

        /// `controller.balance`.
        public struct Balance: Equatable, Sendable {
            /// °.
            public var pitchSetpointDegrees: Double
            /// ° per unit of mean drive.
            public var driveFeedbackDegrees: Double
            /// Hz.
            public var driveFeedbackCutoffHz: Double
            public var pitch: PID
            public var yawRate: PID
        }

        /// `controller.quad`.
        public struct Quad: Equatable, Sendable {
            public var throttle: Double
            /// Path as written (relative to the config file's folder); empty for none.
            public var setpointFile: String
            /// 1/s.
            public var angleGain: Double
            /// °/s.
            public var maxTiltRateDegreesPerSecond: Double
            /// 1/s.
            public var headingGain: Double
            /// °/s.
            public var maxYawRateDegreesPerSecond: Double
            public var idleThrottle: Double
            public var pitchRate: PID
            public var rollRate: PID
            public var yawRate: PID
        }

        init(_ v: ConfigTable) {
            kind = v.choice("controller.kind")
            balance = Balance(pitchSetpointDegrees: v.number("controller.balance.pitch_setpoint_deg"),
                              driveFeedbackDegrees: v.number("controller.balance.drive_feedback_deg"),
                              driveFeedbackCutoffHz: v.number("controller.balance.drive_feedback_cutoff_hz"),
                              pitch: PID(v, "controller.balance.pitch"), yawRate: PID(v, "controller.balance.yaw_rate"))
            quad = Quad(throttle: v.number("controller.quad.throttle"),
                        setpointFile: v.string("controller.quad.setpoint_file"),
                        angleGain: v.number("controller.quad.angle_gain"),
                        maxTiltRateDegreesPerSecond: v.number("controller.quad.max_tilt_rate_dps"),
                        headingGain: v.number("controller.quad.heading_gain"),
                        maxYawRateDegreesPerSecond: v.number("controller.quad.max_yaw_rate_dps"),
                        idleThrottle: v.number("controller.quad.idle_throttle"),
                        pitchRate: PID(v, "controller.quad.pitch_rate"), rollRate: PID(v, "controller.quad.roll_rate"),
                        yawRate: PID(v, "controller.quad.yaw_rate"))
        }
    }

    /// `safety`.
    public struct Safety: Equatable, Sendable {
        /// °.
        public var maxTiltDegrees: Double
        /// °.
        public var armTiltDegrees: Double
        /// s.
        public var armHoldSeconds: Double
        public var autoArm: Bool
        /// ms.
        public var sensorTimeoutMilliseconds: Double
        /// ms.
        public var stallMilliseconds: Double
        public enum ArmSource: String, CaseIterable, Sendable {
            case auto
            case `switch`
        }
        public var armSource: ArmSource
        public enum Rearm: String, CaseIterable, Sendable {
            case never
            case whenLevel = "when_level"
        }
        public var rearm: Rearm
        /// `safety.switch`.
        public struct Switch: Equatable, Sendable {
            /// Empty for `board.gpio_chip`.
            public var chip: String
            public var line: Int
            public var activeLow: Bool
            public enum Bias: String, CaseIterable, Sendable {
                case asIs = "as_is"
                case disable
                case pullUp = "pull_up"
                case pullDown = "pull_down"
            }
            public var bias: Bias
            /// ms.
            public var debounceMilliseconds: Double
        }
        public var armSwitch: Switch

        init(_ v: ConfigTable) {
            maxTiltDegrees = v.number("safety.max_tilt_deg")
            armTiltDegrees = v.number("safety.arm_tilt_deg")
            armHoldSeconds = v.number("safety.arm_hold_s")
            autoArm = v.boolean("safety.auto_arm")
            sensorTimeoutMilliseconds = v.number("safety.sensor_timeout_ms")
            stallMilliseconds = v.number("safety.stall_ms")
            armSource = v.choice("safety.arm_source")
            rearm = v.choice("safety.rearm")
            armSwitch = Switch(chip: v.string("safety.switch.chip"), line: v.integer("safety.switch.line"),
                               activeLow: v.boolean("safety.switch.active_low"), bias: v.choice("safety.switch.bias"),
                               debounceMilliseconds: v.number("safety.switch.debounce_ms"))
        }
    }
}
