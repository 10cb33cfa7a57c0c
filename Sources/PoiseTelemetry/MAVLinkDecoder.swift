// Decoding MAVLink 2 frames of the messages Poise sends and receives (for `poise view`, the
// ground station's receive path and the tests).

/// One decoded message of a type Poise knows.
public enum MAVLinkPacket: Sendable, Equatable {
    case heartbeat(Heartbeat)
    case sysStatus(SysStatus)
    case systemTime(SystemTime)
    case attitude(Attitude)
    case attitudeQuaternion(AttitudeQuaternion)
    case scaledIMU(ScaledIMU)
    case servoOutputRaw(ServoOutputRaw)
    case namedValueFloat(NamedValueFloat)
    case paramRequestRead(ParamRequestRead)
    case paramRequestList(ParamRequestList)
    case paramValue(ParamValue)
    case paramSet(ParamSet)
    case manualControl(ManualControlMessage)
    case commandLong(CommandLong)
    case commandAck(CommandAck)
    case statusText(StatusText)
}

/// A frame's header and its message.
public struct MAVLinkFrame: Sendable, Equatable {
    public var sequence: UInt8
    public var systemID: UInt8
    public var componentID: UInt8
    public var messageID: UInt32
    public var packet: MAVLinkPacket
    /// The signature of a signed frame (incompat flag 1), checked by ``MAVLinkSigning``.
    public var signature: MAVLinkSignature? = nil
}

/// A MAVLink 2 signature block and the bytes it covers.
public struct MAVLinkSignature: Sendable, Equatable {
    public var linkID: UInt8
    /// 10 µs units since 2015-01-01 00:00 UTC.
    public var timestamp: UInt64
    /// The first 6 bytes of SHA-256(key ‖ signedBytes).
    public var signature: [UInt8]
    /// Header (from the start byte), payload, checksum, link id and timestamp.
    public var signedBytes: [UInt8]
}

/// Why bytes were not a frame.
public enum MAVLinkDecodeError: Error, Equatable, Sendable {
    /// No start byte 0xFD where a frame should begin.
    case noStartByte(offset: Int)
    /// Fewer bytes than the header's length says.
    case truncated(offset: Int)
    /// Unknown incompat flags (only 1, signed, is known).
    case unsupportedFlags(offset: Int, flags: UInt8)
    /// A message id this decoder has no definition for (its CRC cannot be checked).
    case unknownMessage(offset: Int, id: UInt32)
    /// The payload is longer than the definition allows.
    case payloadTooLong(offset: Int, id: UInt32, length: Int)
    case badChecksum(offset: Int, id: UInt32)
}

public enum MAVLinkDecoder {
    /// Every frame in `bytes` (a datagram may hold several), and the first error, if any:
    /// decoding stops at the first bad frame since its length cannot be trusted.
    public static func decodeAll(_ bytes: [UInt8]) -> (frames: [MAVLinkFrame], error: MAVLinkDecodeError?) {
        var frames: [MAVLinkFrame] = []
        var offset = 0
        while offset < bytes.count {
            switch decode(bytes, at: offset) {
            case .success(let (frame, length)):
                frames.append(frame)
                offset += length
            case .failure(let error):
                return (frames, error)
            }
        }
        return (frames, nil)
    }

    /// The frame starting at `offset` and its length in bytes.
    public static func decode(_ bytes: [UInt8], at offset: Int = 0) -> Result<(MAVLinkFrame, Int), MAVLinkDecodeError> {
        let header = MAVLinkFramer.headerLength
        guard offset < bytes.count, bytes[offset] == MAVLinkFramer.startByte else { return .failure(.noStartByte(offset: offset)) }
        guard bytes.count - offset >= header + MAVLinkFramer.checksumLength else { return .failure(.truncated(offset: offset)) }
        let length = Int(bytes[offset + 1])
        let flags = bytes[offset + 2]
        guard flags & ~MAVLinkFramer.signedFlag == 0 else { return .failure(.unsupportedFlags(offset: offset, flags: flags)) }
        let signed = flags & MAVLinkFramer.signedFlag != 0
        let total = header + length + MAVLinkFramer.checksumLength + (signed ? MAVLinkFramer.signatureLength : 0)
        guard bytes.count - offset >= total else { return .failure(.truncated(offset: offset)) }
        let id = UInt32(bytes[offset + 7]) | UInt32(bytes[offset + 8]) << 8 | UInt32(bytes[offset + 9]) << 16
        guard let type = messageTypes[id] else { return .failure(.unknownMessage(offset: offset, id: id)) }
        guard length <= type.payloadLength else { return .failure(.payloadTooLong(offset: offset, id: id, length: length)) }
        let crc = MAVLinkCRC.checksum(bytes[(offset + 1) ..< (offset + header + length)] + [type.crcExtra])
        let sent = UInt16(bytes[offset + header + length]) | UInt16(bytes[offset + header + length + 1]) << 8
        guard crc == sent else { return .failure(.badChecksum(offset: offset, id: id)) }
        // Zero-extend the truncated payload to the full definition before reading fields.
        var payload = [UInt8](repeating: 0, count: type.payloadLength)
        payload.replaceSubrange(0 ..< length, with: bytes[(offset + header) ..< (offset + header + length)])
        let packet = payload.withUnsafeBytes { raw in
            var reader = MAVLinkPayloadReader(raw)
            return type.decode(&reader)
        }
        var frame = MAVLinkFrame(sequence: bytes[offset + 4], systemID: bytes[offset + 5], componentID: bytes[offset + 6],
                                 messageID: id, packet: packet)
        if signed {
            let block = offset + header + length + MAVLinkFramer.checksumLength
            var timestamp: UInt64 = 0
            for i in 0 ..< 6 { timestamp |= UInt64(bytes[block + 1 + i]) << UInt64(8 * i) }
            frame.signature = MAVLinkSignature(linkID: bytes[block], timestamp: timestamp,
                                               signature: Array(bytes[(block + 7) ..< (block + 13)]),
                                               signedBytes: Array(bytes[offset ..< (block + 7)]))
        }
        return .success((frame, total))
    }

    struct MessageType: Sendable {
        var crcExtra: UInt8
        var payloadLength: Int
        var decode: @Sendable (inout MAVLinkPayloadReader) -> MAVLinkPacket
    }

    static func entry<M: MAVLinkMessage>(_ type: M.Type, _ wrap: @escaping @Sendable (M) -> MAVLinkPacket) -> (UInt32, MessageType) {
        (M.id, MessageType(crcExtra: M.crcExtra, payloadLength: M.payloadLength) { wrap(M(decoding: &$0)) })
    }

    static let messageTypes: [UInt32: MessageType] = Dictionary(uniqueKeysWithValues: [
        entry(Heartbeat.self) { .heartbeat($0) },
        entry(SysStatus.self) { .sysStatus($0) },
        entry(SystemTime.self) { .systemTime($0) },
        entry(Attitude.self) { .attitude($0) },
        entry(AttitudeQuaternion.self) { .attitudeQuaternion($0) },
        entry(ScaledIMU.self) { .scaledIMU($0) },
        entry(ServoOutputRaw.self) { .servoOutputRaw($0) },
        entry(NamedValueFloat.self) { .namedValueFloat($0) },
        entry(ParamRequestRead.self) { .paramRequestRead($0) },
        entry(ParamRequestList.self) { .paramRequestList($0) },
        entry(ParamValue.self) { .paramValue($0) },
        entry(ParamSet.self) { .paramSet($0) },
        entry(ManualControlMessage.self) { .manualControl($0) },
        entry(CommandLong.self) { .commandLong($0) },
        entry(CommandAck.self) { .commandAck($0) },
        entry(StatusText.self) { .statusText($0) },
    ])
}
