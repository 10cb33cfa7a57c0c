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

        init(_ v: ConfigTable) {
            maxTiltDegrees = v.number("safety.max_tilt_deg")
            armTiltDegrees = v.number("safety.arm_tilt_deg")
            armHoldSeconds = v.number("safety.arm_hold_s")
            autoArm = v.boolean("safety.auto_arm")
            sensorTimeoutMilliseconds = v.number("safety.sensor_timeout_ms")
        }
    }
}
