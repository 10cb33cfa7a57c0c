// The common.xml messages Poise sends. Field units and meanings are MAVLink's; the comment on
// each type gives its wire order (size-sorted base fields, then extensions).

/// HEARTBEAT (id 0). Wire: custom_mode u32, type, autopilot, base_mode, system_status, mavlink_version.
public struct Heartbeat: MAVLinkMessage {
    public static let id: UInt32 = 0
    public static let crcExtra: UInt8 = 50
    public static let payloadLength = 9
    public var customMode: UInt32 = 0
    /// MAV_TYPE.
    public var type: UInt8 = 0
    /// MAV_AUTOPILOT.
    public var autopilot: UInt8 = 0
    /// MAV_MODE_FLAG bits.
    public var baseMode: UInt8 = 0
    /// MAV_STATE.
    public var systemStatus: UInt8 = 0
    public var mavlinkVersion: UInt8 = 3
    public init() {}

    public func encode(into p: inout MAVLinkPayloadWriter) {
        p.put(customMode); p.put(type); p.put(autopilot); p.put(baseMode); p.put(systemStatus); p.put(mavlinkVersion)
    }
    public init(decoding p: inout MAVLinkPayloadReader) {
        customMode = p.uint32(); type = p.uint8(); autopilot = p.uint8(); baseMode = p.uint8()
        systemStatus = p.uint8(); mavlinkVersion = p.uint8()
    }
}

/// SYS_STATUS (id 1). Wire: present, enabled, health (u32); load, voltage_battery (u16),
/// current_battery (i16), drop_rate_comm, errors_comm, errors_count1…4 (u16),
/// battery_remaining (i8); extensions present/enabled/health_extended (u32).
public struct SysStatus: MAVLinkMessage {
    public static let id: UInt32 = 1
    public static let crcExtra: UInt8 = 124
    public static let payloadLength = 43
    /// MAV_SYS_STATUS_SENSOR bits.
    public var sensorsPresent: UInt32 = 0
    public var sensorsEnabled: UInt32 = 0
    public var sensorsHealth: UInt32 = 0
    /// Main loop load, d% (0.1 %).
    public var load: UInt16 = 0
    /// mV; UINT16_MAX = not sent.
    public var voltageBattery: UInt16 = .max
    /// cA; −1 = not sent.
    public var currentBattery: Int16 = -1
    /// c%.
    public var dropRateComm: UInt16 = 0
    public var errorsComm: UInt16 = 0
    public var errorsCount1: UInt16 = 0
    public var errorsCount2: UInt16 = 0
    public var errorsCount3: UInt16 = 0
    public var errorsCount4: UInt16 = 0
    /// %; −1 = not sent.
    public var batteryRemaining: Int8 = -1
    public var sensorsPresentExtended: UInt32 = 0
    public var sensorsEnabledExtended: UInt32 = 0
    public var sensorsHealthExtended: UInt32 = 0
    public init() {}

    public func encode(into p: inout MAVLinkPayloadWriter) {
        p.put(sensorsPresent); p.put(sensorsEnabled); p.put(sensorsHealth)
        p.put(load); p.put(voltageBattery); p.put(currentBattery); p.put(dropRateComm); p.put(errorsComm)
        p.put(errorsCount1); p.put(errorsCount2); p.put(errorsCount3); p.put(errorsCount4)
        p.put(batteryRemaining)
        p.put(sensorsPresentExtended); p.put(sensorsEnabledExtended); p.put(sensorsHealthExtended)
    }
    public init(decoding p: inout MAVLinkPayloadReader) {
        sensorsPresent = p.uint32(); sensorsEnabled = p.uint32(); sensorsHealth = p.uint32()
        load = p.uint16(); voltageBattery = p.uint16(); currentBattery = p.int16()
        dropRateComm = p.uint16(); errorsComm = p.uint16()
        errorsCount1 = p.uint16(); errorsCount2 = p.uint16(); errorsCount3 = p.uint16(); errorsCount4 = p.uint16()
        batteryRemaining = p.int8()
        sensorsPresentExtended = p.uint32(); sensorsEnabledExtended = p.uint32(); sensorsHealthExtended = p.uint32()
    }
}

/// SYSTEM_TIME (id 2). Wire: time_unix_usec u64, time_boot_ms u32. Ties sensor time to the wall
/// clock, so a receiver can tell how old a sample is.
public struct SystemTime: MAVLinkMessage {
    public static let id: UInt32 = 2
    public static let crcExtra: UInt8 = 137
    public static let payloadLength = 12
    /// µs since 1970 at `timeBootMs`.
    public var timeUnixUsec: UInt64 = 0
    public var timeBootMs: UInt32 = 0
    public init() {}

    public func encode(into p: inout MAVLinkPayloadWriter) { p.put(timeUnixUsec); p.put(timeBootMs) }
    public init(decoding p: inout MAVLinkPayloadReader) { timeUnixUsec = p.uint64(); timeBootMs = p.uint32() }
}

/// ATTITUDE (id 30). Wire: time_boot_ms u32, roll, pitch, yaw, rollspeed, pitchspeed, yawspeed (float).
/// Angles rad and rates rad/s, aircraft convention in NED (see ``MAVLinkFrames``).
public struct Attitude: MAVLinkMessage {
    public static let id: UInt32 = 30
    public static let crcExtra: UInt8 = 39
    public static let payloadLength = 28
    public var timeBootMs: UInt32 = 0
    public var roll: Float = 0, pitch: Float = 0, yaw: Float = 0
    public var rollSpeed: Float = 0, pitchSpeed: Float = 0, yawSpeed: Float = 0
    public init() {}

    public func encode(into p: inout MAVLinkPayloadWriter) {
        p.put(timeBootMs); p.put(roll); p.put(pitch); p.put(yaw); p.put(rollSpeed); p.put(pitchSpeed); p.put(yawSpeed)
    }
    public init(decoding p: inout MAVLinkPayloadReader) {
        timeBootMs = p.uint32(); roll = p.float(); pitch = p.float(); yaw = p.float()
        rollSpeed = p.float(); pitchSpeed = p.float(); yawSpeed = p.float()
    }
}

/// ATTITUDE_QUATERNION (id 31). Wire: time_boot_ms u32, q1…q4, rollspeed, pitchspeed, yawspeed
/// (float); extension repr_offset_q float[4] (sent as zeros, which the framing truncates).
public struct AttitudeQuaternion: MAVLinkMessage {
    public static let id: UInt32 = 31
    public static let crcExtra: UInt8 = 246
    public static let payloadLength = 48
    public var timeBootMs: UInt32 = 0
    /// w, x, y, z of the FRD-body-to-NED rotation (Hamilton).
    public var q1: Float = 1, q2: Float = 0, q3: Float = 0, q4: Float = 0
    public var rollSpeed: Float = 0, pitchSpeed: Float = 0, yawSpeed: Float = 0
    public var reprOffsetQ: SIMD4<Float> = .zero
    public init() {}

    public func encode(into p: inout MAVLinkPayloadWriter) {
        p.put(timeBootMs); p.put(q1); p.put(q2); p.put(q3); p.put(q4)
        p.put(rollSpeed); p.put(pitchSpeed); p.put(yawSpeed)
        for i in 0..<4 { p.put(reprOffsetQ[i]) }
    }
    public init(decoding p: inout MAVLinkPayloadReader) {
        timeBootMs = p.uint32(); q1 = p.float(); q2 = p.float(); q3 = p.float(); q4 = p.float()
        rollSpeed = p.float(); pitchSpeed = p.float(); yawSpeed = p.float()
        for i in 0..<4 { reprOffsetQ[i] = p.float() }
    }
}

/// SCALED_IMU (id 26). Wire: time_boot_ms u32, xacc…zacc (mG), xgyro…zgyro (mrad/s),
/// xmag…zmag (mgauss) as i16; extension temperature i16 (c°C; 0 = not sent, per the spec).
public struct ScaledIMU: MAVLinkMessage {
    public static let id: UInt32 = 26
    public static let crcExtra: UInt8 = 170
    public static let payloadLength = 24
    public var timeBootMs: UInt32 = 0
    public var xacc: Int16 = 0, yacc: Int16 = 0, zacc: Int16 = 0
    public var xgyro: Int16 = 0, ygyro: Int16 = 0, zgyro: Int16 = 0
    public var xmag: Int16 = 0, ymag: Int16 = 0, zmag: Int16 = 0
    public var temperature: Int16 = 0
    public init() {}

    public func encode(into p: inout MAVLinkPayloadWriter) {
        p.put(timeBootMs)
        p.put(xacc); p.put(yacc); p.put(zacc); p.put(xgyro); p.put(ygyro); p.put(zgyro)
        p.put(xmag); p.put(ymag); p.put(zmag); p.put(temperature)
    }
    public init(decoding p: inout MAVLinkPayloadReader) {
        timeBootMs = p.uint32()
        xacc = p.int16(); yacc = p.int16(); zacc = p.int16()
        xgyro = p.int16(); ygyro = p.int16(); zgyro = p.int16()
        xmag = p.int16(); ymag = p.int16(); zmag = p.int16(); temperature = p.int16()
    }
}

/// SERVO_OUTPUT_RAW (id 36). Wire: time_usec u32, servo1_raw…servo8_raw u16, port u8;
/// extensions servo9_raw…servo16_raw u16. Values µs.
public struct ServoOutputRaw: MAVLinkMessage {
    public static let id: UInt32 = 36
    public static let crcExtra: UInt8 = 222
    public static let payloadLength = 37
    public var timeUsec: UInt32 = 0
    public var port: UInt8 = 0
    /// servo1_raw … servo16_raw.
    public var servo: InlineArray<16, UInt16> = InlineArray(repeating: 0)
    public init() {}

    public func encode(into p: inout MAVLinkPayloadWriter) {
        p.put(timeUsec)
        for i in 0..<8 { p.put(servo[i]) }
        p.put(port)
        for i in 8..<16 { p.put(servo[i]) }
    }
    public init(decoding p: inout MAVLinkPayloadReader) {
        timeUsec = p.uint32()
        for i in 0..<8 { servo[i] = p.uint16() }
        port = p.uint8()
        for i in 8..<16 { servo[i] = p.uint16() }
    }
    public static func == (a: ServoOutputRaw, b: ServoOutputRaw) -> Bool {
        guard a.timeUsec == b.timeUsec, a.port == b.port else { return false }
        for i in 0..<16 where a.servo[i] != b.servo[i] { return false }
        return true
    }
}

/// NAMED_VALUE_FLOAT (id 251). Wire: time_boot_ms u32, value float, name char[10].
public struct NamedValueFloat: MAVLinkMessage {
    public static let id: UInt32 = 251
    public static let crcExtra: UInt8 = 170
    public static let payloadLength = 18
    public var timeBootMs: UInt32 = 0
    public var value: Float = 0
    /// ASCII, zero padded; 10 bytes with no terminator when full.
    public var nameBytes: InlineArray<10, UInt8> = InlineArray(repeating: 0)
    public init() {}

    /// A value named by a static ASCII string (truncated to 10 bytes); no allocation.
    public init(name: StaticString, value: Float, timeBootMs: UInt32) {
        self.value = value
        self.timeBootMs = timeBootMs
        let count = min(name.utf8CodeUnitCount, 10)
        let start = name.utf8Start
        for i in 0..<count { nameBytes[i] = start[i] }
    }

    /// The name as text, without padding.
    public var name: String {
        var bytes: [UInt8] = []
        for i in 0..<10 where nameBytes[i] != 0 { bytes.append(nameBytes[i]) }
        return String(decoding: bytes, as: UTF8.self)
    }

    public func encode(into p: inout MAVLinkPayloadWriter) {
        p.put(timeBootMs); p.put(value); p.put(nameBytes)
    }
    public init(decoding p: inout MAVLinkPayloadReader) {
        timeBootMs = p.uint32(); value = p.float(); nameBytes = p.chars10()
    }
    public static func == (a: NamedValueFloat, b: NamedValueFloat) -> Bool {
        guard a.timeBootMs == b.timeBootMs, a.value.bitPattern == b.value.bitPattern else { return false }
        for i in 0..<10 where a.nameBytes[i] != b.nameBytes[i] { return false }
        return true
    }
}
