extension ConfigSchema {
    // MAVLink telemetry's keys. Typed properties live in PoiseConfiguration+Telemetry.swift.

    static let telemetryGroups: [ConfigGroup] = [
        ConfigGroup("telemetry", doc: "Live MAVLink 2 telemetry over UDP (see docs/telemetry.md)."),
    ]

    static let telemetryKeys: [ConfigKey] = [
        ConfigKey("telemetry.address", .string, default: "", doc: "HOST:PORT the MAVLink datagrams go to, e.g. 127.0.0.1:14550; empty sends nothing."),
        ConfigKey("telemetry.system_id", .integer(range: 1...255), default: 1, doc: "MAVLink system id of this board."),
        ConfigKey("telemetry.component_id", .integer(range: 1...255), default: 1, doc: "MAVLink component id (1 = autopilot)."),
        ConfigKey("telemetry.heartbeat_hz", .number(range: 0...50), default: 1, unit: "Hz", doc: "HEARTBEAT rate; 0 turns it off."),
        ConfigKey("telemetry.attitude_hz", .number(range: 0...500), default: 50, unit: "Hz", doc: "ATTITUDE and ATTITUDE_QUATERNION rate; 0 turns them off."),
        ConfigKey("telemetry.imu_hz", .number(range: 0...500), default: 10, unit: "Hz", doc: "SCALED_IMU rate; 0 turns it off."),
        ConfigKey("telemetry.outputs_hz", .number(range: 0...500), default: 10, unit: "Hz", doc: "SERVO_OUTPUT_RAW rate; 0 turns it off."),
        ConfigKey("telemetry.status_hz", .number(range: 0...50), default: 2, unit: "Hz", doc: "SYS_STATUS and loop-statistics NAMED_VALUE_FLOAT rate; 0 turns them off."),
    ]
}
