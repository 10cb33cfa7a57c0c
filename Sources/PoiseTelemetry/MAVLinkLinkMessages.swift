// The common.xml messages of the ground station's side of the link: parameters, commands,
// manual control and status text. Wire order as in MAVLinkMessages.swift (size-sorted base
// fields, then extensions); the CRC_EXTRA values are checked against pymavlink in the tests.

/// A fixed `char[n]` field as text (ASCII, up to the first zero) and back.
public enum MAVLinkText {
    public static func string<let n: Int>(_ bytes: InlineArray<n, UInt8>) -> String {
        var out: [UInt8] = []
        for i in bytes.indices {
            if bytes[i] == 0 { break }
            out.append(bytes[i])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The first `n` bytes of `text`, zero padded (no terminator when full, as MAVLink allows).
    public static func bytes<let n: Int>(_ text: String) -> InlineArray<n, UInt8> {
        var v = InlineArray<n, UInt8>(repeating: 0)
        for (i, byte) in text.utf8.prefix(n).enumerated() { v[i] = byte }
        return v
    }
}

/// PARAM_REQUEST_READ (id 20). Wire: param_index i16, target_system, target_component, param_id char[16].
public struct ParamRequestRead: MAVLinkMessage {
    public static let id: UInt32 = 20
    public static let crcExtra: UInt8 = 214
    public static let payloadLength = 20
    /// −1: look the parameter up by `paramID` instead.
    public var paramIndex: Int16 = -1
    public var targetSystem: UInt8 = 0, targetComponent: UInt8 = 0
    public var paramID: InlineArray<16, UInt8> = InlineArray(repeating: 0)
    public init() {}
    public func encode(into p: inout MAVLinkPayloadWriter) { p.put(paramIndex); p.put(targetSystem); p.put(targetComponent); p.put(paramID) }
    public init(decoding p: inout MAVLinkPayloadReader) {
        paramIndex = p.int16(); targetSystem = p.uint8(); targetComponent = p.uint8(); paramID = p.chars()
    }
    public static func == (a: Self, b: Self) -> Bool {
        a.paramIndex == b.paramIndex && a.targetSystem == b.targetSystem && a.targetComponent == b.targetComponent
            && MAVLinkText.string(a.paramID) == MAVLinkText.string(b.paramID)
    }
}

/// PARAM_REQUEST_LIST (id 21). Wire: target_system, target_component.
public struct ParamRequestList: MAVLinkMessage {
    public static let id: UInt32 = 21
    public static let crcExtra: UInt8 = 159
    public static let payloadLength = 2
    public var targetSystem: UInt8 = 0, targetComponent: UInt8 = 0
    public init() {}
    public func encode(into p: inout MAVLinkPayloadWriter) { p.put(targetSystem); p.put(targetComponent) }
    public init(decoding p: inout MAVLinkPayloadReader) { targetSystem = p.uint8(); targetComponent = p.uint8() }
}

/// PARAM_VALUE (id 22). Wire: param_value float, param_count u16, param_index u16, param_id char[16], param_type u8.
public struct ParamValue: MAVLinkMessage {
    public static let id: UInt32 = 22
    public static let crcExtra: UInt8 = 220
    public static let payloadLength = 25
    public var paramValue: Float = 0
    public var paramCount: UInt16 = 0, paramIndex: UInt16 = 0
    public var paramID: InlineArray<16, UInt8> = InlineArray(repeating: 0)
    /// MAV_PARAM_TYPE; Poise sends every value as REAL32 (9).
    public var paramType: UInt8 = 9
    public init() {}
    public func encode(into p: inout MAVLinkPayloadWriter) {
        p.put(paramValue); p.put(paramCount); p.put(paramIndex); p.put(paramID); p.put(paramType)
    }
    public init(decoding p: inout MAVLinkPayloadReader) {
        paramValue = p.float(); paramCount = p.uint16(); paramIndex = p.uint16(); paramID = p.chars(); paramType = p.uint8()
    }
    public static func == (a: Self, b: Self) -> Bool {
        a.paramValue.bitPattern == b.paramValue.bitPattern && a.paramCount == b.paramCount && a.paramIndex == b.paramIndex
            && MAVLinkText.string(a.paramID) == MAVLinkText.string(b.paramID) && a.paramType == b.paramType
    }
}

/// PARAM_SET (id 23). Wire: param_value float, target_system, target_component, param_id char[16], param_type u8.
public struct ParamSet: MAVLinkMessage {
    public static let id: UInt32 = 23
    public static let crcExtra: UInt8 = 168
    public static let payloadLength = 23
    public var paramValue: Float = 0
    public var targetSystem: UInt8 = 0, targetComponent: UInt8 = 0
    public var paramID: InlineArray<16, UInt8> = InlineArray(repeating: 0)
    public var paramType: UInt8 = 9
    public init() {}
    public func encode(into p: inout MAVLinkPayloadWriter) {
        p.put(paramValue); p.put(targetSystem); p.put(targetComponent); p.put(paramID); p.put(paramType)
    }
    public init(decoding p: inout MAVLinkPayloadReader) {
        paramValue = p.float(); targetSystem = p.uint8(); targetComponent = p.uint8(); paramID = p.chars(); paramType = p.uint8()
    }
    public static func == (a: Self, b: Self) -> Bool {
        a.paramValue.bitPattern == b.paramValue.bitPattern && a.targetSystem == b.targetSystem
            && a.targetComponent == b.targetComponent && MAVLinkText.string(a.paramID) == MAVLinkText.string(b.paramID)
            && a.paramType == b.paramType
    }
}

/// MANUAL_CONTROL (id 69). Wire: x, y, z, r i16, buttons u16, target u8; extensions buttons2
/// u16, enabled_extensions u8, s, t, aux1…aux6 i16 (read, unused).
public struct ManualControlMessage: MAVLinkMessage {
    public static let id: UInt32 = 69
    public static let crcExtra: UInt8 = 243
    public static let payloadLength = 30
    /// ±1000 (z: throttle 0…1000); INT16_MAX = axis not sent.
    public var x: Int16 = 0, y: Int16 = 0, z: Int16 = 0, r: Int16 = 0
    public var buttons: UInt16 = 0
    public var target: UInt8 = 0
    public var buttons2: UInt16 = 0
    public init() {}
    public func encode(into p: inout MAVLinkPayloadWriter) {
        p.put(x); p.put(y); p.put(z); p.put(r); p.put(buttons); p.put(target); p.put(buttons2)
        for _ in 0 ..< 17 { p.put(UInt8(0)) }
    }
    public init(decoding p: inout MAVLinkPayloadReader) {
        x = p.int16(); y = p.int16(); z = p.int16(); r = p.int16(); buttons = p.uint16(); target = p.uint8(); buttons2 = p.uint16()
        p.offset = Self.payloadLength
    }
}

/// COMMAND_LONG (id 76). Wire: param1…param7 float, command u16, target_system, target_component, confirmation.
public struct CommandLong: MAVLinkMessage {
    public static let id: UInt32 = 76
    public static let crcExtra: UInt8 = 152
    public static let payloadLength = 33
    public var params: SIMD8<Float> = .zero
    public var command: UInt16 = 0
    public var targetSystem: UInt8 = 0, targetComponent: UInt8 = 0, confirmation: UInt8 = 0
    public init() {}
    public func encode(into p: inout MAVLinkPayloadWriter) {
        for i in 0 ..< 7 { p.put(params[i]) }
        p.put(command); p.put(targetSystem); p.put(targetComponent); p.put(confirmation)
    }
    public init(decoding p: inout MAVLinkPayloadReader) {
        for i in 0 ..< 7 { params[i] = p.float() }
        command = p.uint16(); targetSystem = p.uint8(); targetComponent = p.uint8(); confirmation = p.uint8()
    }
}

/// COMMAND_ACK (id 77). Wire: command u16, result u8; extensions progress u8, result_param2
/// i32, target_system, target_component.
public struct CommandAck: MAVLinkMessage {
    public static let id: UInt32 = 77
    public static let crcExtra: UInt8 = 143
    public static let payloadLength = 10
    public var command: UInt16 = 0
    /// MAV_RESULT.
    public var result: UInt8 = 0
    public var progress: UInt8 = 0
    public var resultParam2: Int32 = 0
    public var targetSystem: UInt8 = 0, targetComponent: UInt8 = 0
    public init() {}
    public func encode(into p: inout MAVLinkPayloadWriter) {
        p.put(command); p.put(result); p.put(progress); p.put(resultParam2); p.put(targetSystem); p.put(targetComponent)
    }
    public init(decoding p: inout MAVLinkPayloadReader) {
        command = p.uint16(); result = p.uint8(); progress = p.uint8(); resultParam2 = p.int32()
        targetSystem = p.uint8(); targetComponent = p.uint8()
    }
}

/// STATUSTEXT (id 253). Wire: severity u8, text char[50]; extensions id u16, chunk_seq u8.
public struct StatusText: MAVLinkMessage {
    public static let id: UInt32 = 253
    public static let crcExtra: UInt8 = 83
    public static let payloadLength = 54
    /// MAV_SEVERITY: 2 critical, 4 warning, 6 info.
    public var severity: UInt8 = 6
    public var text: InlineArray<50, UInt8> = InlineArray(repeating: 0)
    public var messageID: UInt16 = 0
    public var chunkSequence: UInt8 = 0
    public init() {}
    public init(severity: UInt8, text: String) {
        self.severity = severity
        self.text = MAVLinkText.bytes(text)
    }
    /// `text` in as many messages as it needs: 50 bytes each, cut between characters; when
    /// more than one, they share the non-zero `id` and count up in `chunk_seq` (MAVLink 2's
    /// long status texts; a receiver that ignores both still shows every piece).
    public static func pieces(severity: UInt8, text: String, id: UInt16) -> [StatusText] {
        var pieces: [[UInt8]] = [[]]
        for character in text {
            let bytes = Array(String(character).utf8)
            if pieces[pieces.count - 1].count + bytes.count > 50 { pieces.append([]) }
            pieces[pieces.count - 1] += bytes
        }
        return pieces.enumerated().map { index, bytes in
            var m = StatusText()
            m.severity = severity
            for (i, byte) in bytes.enumerated() { m.text[i] = byte }
            if pieces.count > 1 {
                m.messageID = id
                m.chunkSequence = UInt8(truncatingIfNeeded: index)
            }
            return m
        }
    }

    public func encode(into p: inout MAVLinkPayloadWriter) { p.put(severity); p.put(text); p.put(messageID); p.put(chunkSequence) }
    public init(decoding p: inout MAVLinkPayloadReader) {
        severity = p.uint8(); text = p.chars(); messageID = p.uint16(); chunkSequence = p.uint8()
    }
    public static func == (a: Self, b: Self) -> Bool {
        a.severity == b.severity && MAVLinkText.string(a.text) == MAVLinkText.string(b.text)
            && a.messageID == b.messageID && a.chunkSequence == b.chunkSequence
    }
}
