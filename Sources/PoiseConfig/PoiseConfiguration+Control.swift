import PoiseControl

extension PoiseConfiguration {
    /// `controller`: which controller runs and its settings as the control laws take them
    /// (radians; set through the bindings of ConfigSchema+Control.swift).
    public struct Controller: Equatable, Sendable {
        public enum Kind: String, CaseIterable, Sendable {
            case none, balance
            case quadX = "quad_x", quadPlus = "quad_plus"
        }
        public var kind: Kind
        public var balance: BalanceSettings
        public var quad: Quad

        /// `controller.quad`.
        public struct Quad: Equatable, Sendable {
            public var throttle: Double
            /// Path as written (relative to the config file's folder); empty for none.
            public var setpointFile: String
            /// The gains; `frame` is `.x` until ``CoreConfiguration`` sets it from the kind.
            public var settings: QuadSettings
        }

        init(_ v: ConfigTable) {
            kind = v.choice("controller.kind")
            balance = ConfigBinding.settings(ConfigSchema.balanceBindings, from: v, base: BalanceSettings())
            quad = Quad(throttle: v.number("controller.quad.throttle"), setpointFile: v.string("controller.quad.setpoint_file"),
                        settings: ConfigBinding.settings(ConfigSchema.quadBindings, from: v, base: QuadSettings()))
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
