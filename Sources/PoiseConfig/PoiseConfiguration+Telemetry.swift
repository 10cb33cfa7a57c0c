import PoiseDeviceSettings

// The `telemetry` section: the address, and the MAVLink stream's `TelemetrySettings`, whose
// fields the other keys are bound to; each default is that field's own (PoiseDeviceSettings).
// Exposing a stream setting is one binding here (then regenerate the example and the table).

extension PoiseConfiguration {
    /// `telemetry`.
    public struct Telemetry: Equatable, Sendable {
        /// HOST:PORT, or nil when telemetry is off (the key empty).
        public var address: String? = nil
        /// Ids and rates; `world` and `levelChannels` come from the `frame` and `outputs`
        /// sections (PoiseSettings fills them in).
        public var stream = TelemetrySettings()
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
            .integer("telemetry.system_id", \.stream.systemID, range: 1...255, defaults: d, doc: "MAVLink system id of this board."),
            .integer("telemetry.component_id", \.stream.componentID, range: 1...255, defaults: d, doc: "MAVLink component id (1 = autopilot)."),
            .number("telemetry.heartbeat_hz", \.stream.heartbeatHz, range: 0...50, unit: "Hz", zeroTurnsOff: true, defaults: d,
                    doc: "HEARTBEAT rate; 0 turns it off."),
            .number("telemetry.attitude_hz", \.stream.attitudeHz, range: 0...500, unit: "Hz", zeroTurnsOff: true, defaults: d,
                    doc: "ATTITUDE and ATTITUDE_QUATERNION rate; 0 turns them off."),
            .number("telemetry.imu_hz", \.stream.imuHz, range: 0...500, unit: "Hz", zeroTurnsOff: true, defaults: d,
                    doc: "SCALED_IMU rate; 0 turns it off."),
            .number("telemetry.outputs_hz", \.stream.outputsHz, range: 0...500, unit: "Hz", zeroTurnsOff: true, defaults: d,
                    doc: "SERVO_OUTPUT_RAW rate; 0 turns it off."),
            .number("telemetry.status_hz", \.stream.statusHz, range: 0...50, unit: "Hz", zeroTurnsOff: true, defaults: d,
                    doc: "SYS_STATUS and loop-statistics NAMED_VALUE_FLOAT rate; 0 turns them off."),
            .boolean("telemetry.accept_commands", \.stream.acceptCommands, defaults: d,
                     doc: "Without a signing key: take commands, parameter writes and MANUAL_CONTROL from a ground station at a loopback address (never from another host). With a key every such message must be signed instead."),
            .string("telemetry.signing_key_file", \.stream.signingKeyFile, defaults: d,
                    doc: "File with the MAVLink 2 signing key, 64 hexadecimal digits (32 bytes, as `openssl rand -hex 32` prints them), a regular file of mode 0600; then every command, parameter write and setpoint must carry a valid signature and every frame sent is signed. Empty: unsigned."),
            .number("telemetry.setpoint_timeout_ms", \.stream.setpointTimeout, range: 20...10000, unit: "ms", .millisecondsToSeconds, defaults: d,
                    doc: "Once MANUAL_CONTROL setpoints have arrived, a gap this long loses them: the robot brakes to a stop, the quad fails safe (`setpoint lost`)."),
            .number("telemetry.max_messages_per_s", \.stream.maximumIncomingRate, range: 1...10000, unit: "1/s", defaults: d,
                    doc: "Incoming frames handled per second at most (bursts up to one second's worth); the rest are counted and dropped."),
        ]
    }()
}
