extension PoiseConfiguration {
    /// `telemetry`.
    public struct Telemetry: Equatable, Sendable {
        /// HOST:PORT, or nil when telemetry is off.
        public var address: String?
        public var systemID: Int
        public var componentID: Int
        /// Hz; 0 = off.
        public var heartbeatHz: Double
        public var attitudeHz: Double
        public var imuHz: Double
        public var outputsHz: Double
        public var statusHz: Double

        init(_ v: ConfigTable) {
            let text = v.string("telemetry.address")
            address = text.isEmpty ? nil : text
            systemID = v.integer("telemetry.system_id")
            componentID = v.integer("telemetry.component_id")
            heartbeatHz = v.number("telemetry.heartbeat_hz")
            attitudeHz = v.number("telemetry.attitude_hz")
            imuHz = v.number("telemetry.imu_hz")
            outputsHz = v.number("telemetry.outputs_hz")
            statusHz = v.number("telemetry.status_hz")
        }
    }

    /// `telemetry`, read from ``values`` (derived, so it never disagrees with them).
    public var telemetry: Telemetry { Telemetry(values) }
}
