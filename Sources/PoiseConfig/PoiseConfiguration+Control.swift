extension PoiseConfiguration {
    /// `controller`.
    public struct Controller: Equatable, Sendable {
        public enum Kind: String, CaseIterable, Sendable { case none, pid }
        public var kind: Kind
        public var pid: PID

        public struct PID: Equatable, Sendable {
            public var kp: Double
            public var ki: Double
            public var kd: Double
            /// °.
            public var setpointDegrees: Double
            /// Output clamp, ±.
            public var outputLimit: Double
        }

        init(_ v: ConfigTable) {
            kind = v.choice("controller.kind")
            pid = PID(kp: v.number("controller.pid.kp"), ki: v.number("controller.pid.ki"),
                      kd: v.number("controller.pid.kd"), setpointDegrees: v.number("controller.pid.setpoint_deg"),
                      outputLimit: v.number("controller.pid.output_limit"))
        }
    }

    /// `safety`.
    public struct Safety: Equatable, Sendable {
        /// °.
        public var maxTiltDegrees: Double
        /// ms.
        public var sensorTimeoutMilliseconds: Double

        init(_ v: ConfigTable) {
            maxTiltDegrees = v.number("safety.max_tilt_deg")
            sensorTimeoutMilliseconds = v.number("safety.sensor_timeout_ms")
        }
    }
}
