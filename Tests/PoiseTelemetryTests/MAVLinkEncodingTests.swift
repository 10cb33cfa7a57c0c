import Testing
import PoiseTelemetry

@Suite struct MAVLinkEncodingTests {
    @Test func checksumMatchesTheCRC16MCRF4XXCheckValue() {
        // The catalogue check value of CRC-16/MCRF4XX over "123456789".
        #expect(MAVLinkCRC.checksum(Array("123456789".utf8)) == 0x6F91)
    }

    /// CRC_EXTRA derived from each definition's base fields (wire order) as the generator does.
    @Test func crcExtrasFollowFromTheDefinitions() {
        func f(_ t: String, _ names: String...) -> [(type: String, name: String, arrayLength: Int)] {
            names.map { (t, $0, 0) }
        }
        #expect(MAVLinkCRC.crcExtra(messageName: "HEARTBEAT", fields:
            f("uint32_t", "custom_mode") + f("uint8_t", "type", "autopilot", "base_mode", "system_status", "mavlink_version")) == Heartbeat.crcExtra)
        #expect(MAVLinkCRC.crcExtra(messageName: "SYS_STATUS", fields:
            f("uint32_t", "onboard_control_sensors_present", "onboard_control_sensors_enabled", "onboard_control_sensors_health")
            + f("uint16_t", "load", "voltage_battery") + f("int16_t", "current_battery")
            + f("uint16_t", "drop_rate_comm", "errors_comm", "errors_count1", "errors_count2", "errors_count3", "errors_count4")
            + f("int8_t", "battery_remaining")) == SysStatus.crcExtra)
        #expect(MAVLinkCRC.crcExtra(messageName: "SYSTEM_TIME", fields:
            f("uint64_t", "time_unix_usec") + f("uint32_t", "time_boot_ms")) == SystemTime.crcExtra)
        #expect(MAVLinkCRC.crcExtra(messageName: "ATTITUDE", fields:
            f("uint32_t", "time_boot_ms") + f("float", "roll", "pitch", "yaw", "rollspeed", "pitchspeed", "yawspeed")) == Attitude.crcExtra)
        #expect(MAVLinkCRC.crcExtra(messageName: "ATTITUDE_QUATERNION", fields:
            f("uint32_t", "time_boot_ms") + f("float", "q1", "q2", "q3", "q4", "rollspeed", "pitchspeed", "yawspeed")) == AttitudeQuaternion.crcExtra)
        #expect(MAVLinkCRC.crcExtra(messageName: "SCALED_IMU", fields:
            f("uint32_t", "time_boot_ms") + f("int16_t", "xacc", "yacc", "zacc", "xgyro", "ygyro", "zgyro", "xmag", "ymag", "zmag")) == ScaledIMU.crcExtra)
        #expect(MAVLinkCRC.crcExtra(messageName: "SERVO_OUTPUT_RAW", fields:
            f("uint32_t", "time_usec") + f("uint16_t", "servo1_raw", "servo2_raw", "servo3_raw", "servo4_raw", "servo5_raw", "servo6_raw", "servo7_raw", "servo8_raw")
            + f("uint8_t", "port")) == ServoOutputRaw.crcExtra)
        #expect(MAVLinkCRC.crcExtra(messageName: "NAMED_VALUE_FLOAT", fields:
            f("uint32_t", "time_boot_ms") + f("float", "value") + [("char", "name", 10)]) == NamedValueFloat.crcExtra)
    }

    func frame<M: MAVLinkMessage>(_ m: M, framer: inout MAVLinkFramer) -> [UInt8] {
        var buffer = [UInt8](repeating: 0xAA, count: MAVLinkFramer.maximumFrameLength)
        let n = buffer.withUnsafeMutableBytes { framer.encode(m, into: $0) }
        return Array(buffer[0 ..< n])
    }

    @Test func framesRoundTripWithHeaderAndSequence() throws {
        var framer = MAVLinkFramer(systemID: 7, componentID: 200)
        var a = Attitude()
        a.timeBootMs = 123_456; a.roll = 0.1; a.pitch = -0.2; a.yaw = 3; a.yawSpeed = 0.5
        var q = AttitudeQuaternion()
        q.q1 = 0.5; q.q2 = 0.5; q.q3 = -0.5; q.q4 = 0.5
        var servo = ServoOutputRaw()
        servo.servo[0] = 1500; servo.servo[9] = 1
        let bytes = frame(a, framer: &framer) + frame(q, framer: &framer) + frame(servo, framer: &framer)
            + frame(NamedValueFloat(name: "late_p99", value: 12.5, timeBootMs: 9), framer: &framer)
        let (frames, error) = MAVLinkDecoder.decodeAll(bytes)
        #expect(error == nil)
        #expect(frames.map(\.sequence) == [0, 1, 2, 3])
        #expect(frames.allSatisfy { $0.systemID == 7 && $0.componentID == 200 })
        #expect(frames.map(\.packet) == [.attitude(a), .attitudeQuaternion(q), .servoOutputRaw(servo),
                                         .namedValueFloat(NamedValueFloat(name: "late_p99", value: 12.5, timeBootMs: 9))])
        if case .namedValueFloat(let v) = frames[3].packet { #expect(v.name == "late_p99") }
    }

    @Test func trailingZerosAreTruncatedButTheFirstByteStays() {
        var framer = MAVLinkFramer(systemID: 1, componentID: 1)
        // All zero: one payload byte is kept.
        let empty = frame(Heartbeat.zero, framer: &framer)
        #expect(empty[1] == 1)
        #expect(empty.count == MAVLinkFramer.headerLength + 1 + 2)
        // ATTITUDE_QUATERNION's zero repr_offset_q extension (16 bytes) is not sent.
        var q = AttitudeQuaternion()
        q.yawSpeed = 1
        #expect(frame(q, framer: &framer)[1] == 32)
        #expect(MAVLinkDecoder.decode(frame(q, framer: &framer)).map(\.0.packet) == .success(.attitudeQuaternion(q)))
    }

    @Test func sequenceWrapsAfter255() {
        var framer = MAVLinkFramer(systemID: 1, componentID: 1)
        framer.sequence = 255
        #expect(frame(Heartbeat(), framer: &framer)[4] == 255)
        #expect(frame(Heartbeat(), framer: &framer)[4] == 0)
    }

    @Test func aShortBufferGetsNothing() {
        var framer = MAVLinkFramer(systemID: 1, componentID: 1)
        var small = [UInt8](repeating: 0, count: 20)
        #expect(small.withUnsafeMutableBytes { framer.encode(Attitude(), into: $0) } == 0)
        #expect(framer.sequence == 0)
    }

    @Test func damagedFramesAreRejectedWithAReason() {
        var framer = MAVLinkFramer(systemID: 1, componentID: 1)
        var bytes = frame(Attitude(), framer: &framer)
        bytes[12] ^= 0x40
        guard case .failure(.badChecksum(offset: 0, id: 30)) = MAVLinkDecoder.decode(bytes) else {
            Issue.record("expected a checksum error"); return
        }
        #expect(MAVLinkDecoder.decodeAll([0x55, 1, 2]).error == .noStartByte(offset: 0))
        #expect(MAVLinkDecoder.decodeAll([0xFD, 9, 0, 0, 0]).error == .truncated(offset: 0))
        // Random bytes after a start byte: the first frame is refused, with its offset, and
        // nothing is decoded (a random checksum matches once in 65 536; the seed is fixed).
        var generator = SeededRandom(seed: 0x6D61_766C_696E_6B)
        for trial in 0 ..< 2000 {
            let garbage = [0xFD] + (0 ..< Int.random(in: 0 ... 300, using: &generator)).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
            let decoded = MAVLinkDecoder.decodeAll(garbage)
            #expect(decoded.frames.isEmpty && decoded.error.map(Self.offset) == 0,
                    "trial \(trial), \(garbage.count) bytes: \(decoded.frames.count) frames, \(String(describing: decoded.error))")
        }
    }

    static func offset(_ error: MAVLinkDecodeError) -> Int {
        switch error {
        case .noStartByte(let offset), .truncated(let offset), .unsupportedFlags(let offset, _),
             .unknownMessage(let offset, _), .payloadTooLong(let offset, _, _), .badChecksum(let offset, _):
            return offset
        }
    }
}

extension Heartbeat {
    static var zero: Heartbeat { var h = Heartbeat(); h.mavlinkVersion = 0; return h }
}
