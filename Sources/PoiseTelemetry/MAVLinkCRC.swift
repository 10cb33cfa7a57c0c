// MAVLink's checksum: CRC-16/MCRF4XX (the X.25 polynomial 0x1021, reflected, initial 0xFFFF,
// no final XOR), accumulated over the frame after the start byte, then over CRC_EXTRA.

/// A running MAVLink checksum.
@frozen
public struct MAVLinkCRC: Sendable, Equatable {
    public var value: UInt16 = 0xFFFF

    @inlinable public init() {}

    @inlinable
    public mutating func accumulate(_ byte: UInt8) {
        // The byte-wise form of the reflected 0x1021 polynomial (as in the MAVLink C library's
        // crc_accumulate): no table, so nothing to allocate or initialise.
        var t = byte ^ UInt8(truncatingIfNeeded: value)
        t ^= t << 4
        let t16 = UInt16(t)
        value = (value >> 8) ^ (t16 << 8) ^ (t16 << 3) ^ (t16 >> 4)
    }

    @inlinable
    public mutating func accumulate(_ bytes: UnsafeRawBufferPointer) {
        for byte in bytes { accumulate(byte) }
    }

    /// The CRC of a byte sequence (for tests and the CRC_EXTRA derivation).
    public static func checksum<S: Sequence>(_ bytes: S) -> UInt16 where S.Element == UInt8 {
        var crc = MAVLinkCRC()
        for byte in bytes { crc.accumulate(byte) }
        return crc.value
    }

    /// CRC_EXTRA as the MAVLink generator derives it from a message definition: the CRC of
    /// "NAME " and, per base field in wire order, "type name " (plus the array length byte),
    /// folded to one byte. `fields` are (C type without `_mavlink_version`, name, array length or 0).
    public static func crcExtra(messageName: String, fields: [(type: String, name: String, arrayLength: Int)]) -> UInt8 {
        var bytes = Array((messageName + " ").utf8)
        for field in fields {
            bytes += Array((field.type + " " + field.name + " ").utf8)
            if field.arrayLength > 0 { bytes.append(UInt8(field.arrayLength)) }
        }
        let crc = checksum(bytes)
        return UInt8(truncatingIfNeeded: crc & 0xFF) ^ UInt8(truncatingIfNeeded: crc >> 8)
    }
}
