// The `telemetry` section: each field declared with its default and bound once to its key.
// PoiseSettings turns it into the MAVLink sender's `TelemetrySettings`.

extension PoiseConfiguration {
    /// `telemetry`.
    public struct Telemetry: Equatable, Sendable {
        /// HOST:PORT, or nil when telemetry is off (the key empty).
        public var address: String? = nil
        public var systemID = 1
        public var componentID = 1
        /// Hz; 0 = off.
        public var heartbeatHz: Double = 1
        public var attitudeHz: Double = 50
        public var imuHz: Double = 10
        public var outputsHz: Double = 10
        public var statusHz: Double = 2
    }

    /// `telemetry`, read from ``values`` (derived, so it never disagrees with them).
    public var telemetry: Telemetry { Telemetry(values) }
}

extension PoiseConfiguration.Telemetry {
    init(_ v: ConfigTable) { self = ConfigBinding.settings(Self.bindings, from: v, base: Self()) }

    static let bindings: [ConfigBinding<Self>] = {
        let d = Self()
        return [
            .string("telemetry.address", \.address, defaults: d,
                    doc: "HOST:PORT the MAVLink datagrams go to, e.g. 127.0.0.1:14550; empty sends nothing."),
            .integer("telemetry.system_id", \.systemID, range: 1...255, defaults: d, doc: "MAVLink system id of this board."),
            .integer("telemetry.component_id", \.componentID, range: 1...255, defaults: d, doc: "MAVLink component id (1 = autopilot)."),
            .number("telemetry.heartbeat_hz", \.heartbeatHz, range: 0...50, unit: "Hz", zeroTurnsOff: true, defaults: d,
                    doc: "HEARTBEAT rate; 0 turns it off."),
            .number("telemetry.attitude_hz", \.attitudeHz, range: 0...500, unit: "Hz", zeroTurnsOff: true, defaults: d,
                    doc: "ATTITUDE and ATTITUDE_QUATERNION rate; 0 turns them off."),
            .number("telemetry.imu_hz", \.imuHz, range: 0...500, unit: "Hz", zeroTurnsOff: true, defaults: d,
                    doc: "SCALED_IMU rate; 0 turns it off."),
            .number("telemetry.outputs_hz", \.outputsHz, range: 0...500, unit: "Hz", zeroTurnsOff: true, defaults: d,
                    doc: "SERVO_OUTPUT_RAW rate; 0 turns it off."),
            .number("telemetry.status_hz", \.statusHz, range: 0...50, unit: "Hz", zeroTurnsOff: true, defaults: d,
                    doc: "SYS_STATUS and loop-statistics NAMED_VALUE_FLOAT rate; 0 turns them off."),
        ]
    }()
}
