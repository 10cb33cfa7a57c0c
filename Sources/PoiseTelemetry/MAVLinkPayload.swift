// Little-endian field access for MAVLink payloads, over memory the caller owns.

/// Writes fields one after the other, in wire order, into a payload buffer.
///
/// The caller provides the memory (at least the message's full payload length), so encoding
/// allocates nothing.
@frozen
public struct MAVLinkPayloadWriter {
    @usableFromInline let bytes: UnsafeMutableRawBufferPointer
    public var offset: Int = 0

    @inlinable
    public init(_ bytes: UnsafeMutableRawBufferPointer) { self.bytes = bytes }

    @inlinable public mutating func put(_ v: UInt8) { bytes[offset] = v; offset += 1 }
    @inlinable public mutating func put(_ v: Int8) { put(UInt8(bitPattern: v)) }
    @inlinable public mutating func put(_ v: UInt16) { put(UInt8(truncatingIfNeeded: v)); put(UInt8(truncatingIfNeeded: v >> 8)) }
    @inlinable public mutating func put(_ v: Int16) { put(UInt16(bitPattern: v)) }
    @inlinable public mutating func put(_ v: UInt32) { put(UInt16(truncatingIfNeeded: v)); put(UInt16(truncatingIfNeeded: v >> 16)) }
    @inlinable public mutating func put(_ v: UInt64) { put(UInt32(truncatingIfNeeded: v)); put(UInt32(truncatingIfNeeded: v >> 32)) }
    @inlinable public mutating func put(_ v: Float) { put(v.bitPattern) }
    /// A fixed-length `char[n]` field: the bytes, zero padded (no terminator when full).
    @inlinable public mutating func put<let n: Int>(_ v: InlineArray<n, UInt8>) { for i in v.indices { put(v[i]) } }
    @inlinable public mutating func put(_ v: Int32) { put(UInt32(bitPattern: v)) }
}

/// Reads fields in wire order from a payload the decoder has zero-extended to full length.
@frozen
public struct MAVLinkPayloadReader {
    @usableFromInline let bytes: UnsafeRawBufferPointer
    public var offset: Int = 0

    @inlinable
    public init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    @inlinable public mutating func uint8() -> UInt8 { defer { offset += 1 }; return bytes[offset] }
    @inlinable public mutating func int8() -> Int8 { Int8(bitPattern: uint8()) }
    @inlinable public mutating func uint16() -> UInt16 { let lo = UInt16(uint8()); return lo | UInt16(uint8()) << 8 }
    @inlinable public mutating func int16() -> Int16 { Int16(bitPattern: uint16()) }
    @inlinable public mutating func uint32() -> UInt32 { let lo = UInt32(uint16()); return lo | UInt32(uint16()) << 16 }
    @inlinable public mutating func uint64() -> UInt64 { let lo = UInt64(uint32()); return lo | UInt64(uint32()) << 32 }
    @inlinable public mutating func float() -> Float { Float(bitPattern: uint32()) }
    @inlinable public mutating func int32() -> Int32 { Int32(bitPattern: uint32()) }
    @inlinable public mutating func chars10() -> InlineArray<10, UInt8> { chars() }
    /// A fixed-length `char[n]` field.
    @inlinable public mutating func chars<let n: Int>() -> InlineArray<n, UInt8> {
        var v = InlineArray<n, UInt8>(repeating: 0)
        for i in v.indices { v[i] = uint8() }
        return v
    }
}
