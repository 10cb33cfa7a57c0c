// MAVLink 2 framing: header, truncated payload, checksum; one sequence counter per sender.

/// Builds MAVLink 2 frames into memory the caller provides.
///
/// Frame layout: `0xFD`, payload length, incompat flags (0: unsigned), compat flags, sequence,
/// system id, component id, message id (3 bytes, little-endian), payload, CRC (little-endian).
/// The payload loses its trailing zero bytes (MAVLink 2 truncation; the first byte always
/// stays). Allocates nothing, so it could run anywhere, even in the tick.
@frozen
public struct MAVLinkFramer: Sendable {
    public static let startByte: UInt8 = 0xFD
    public static let headerLength = 10
    public static let checksumLength = 2
    /// The longest frame this framer writes (unsigned, 255-byte payload).
    public static let maximumFrameLength = headerLength + 255 + checksumLength
    /// Incompat flag of a signed frame, and the signature block's length (link id, 6-byte
    /// timestamp, 6-byte signature) after the checksum.
    public static let signedFlag: UInt8 = 1
    public static let signatureLength = 13

    public var systemID: UInt8
    public var componentID: UInt8
    /// Sequence number of the next frame; wraps at 255.
    public var sequence: UInt8 = 0
    /// Incompat flags written into each frame: ``signedFlag`` when a signer appends a signature
    /// after the checksum (it must be in the header before the checksum is computed).
    public var incompatFlags: UInt8 = 0

    @inlinable
    public init(systemID: UInt8, componentID: UInt8) {
        self.systemID = systemID
        self.componentID = componentID
    }

    /// Writes `message` as one frame at the start of `buffer` and returns its length, or 0 when
    /// `buffer` is shorter than the untruncated frame (nothing written, sequence unchanged).
    /// (Generic, so the optimiser's allocation check cannot see it unspecialised; it is
    /// @inlinable and specialises in the caller, and uses only the caller's memory.)
    @inlinable
    public mutating func encode<M: MAVLinkMessage>(_ message: M, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let full = M.payloadLength
        guard buffer.count >= Self.headerLength + full + Self.checksumLength else { return 0 }
        let payload = UnsafeMutableRawBufferPointer(rebasing: buffer[Self.headerLength ..< Self.headerLength + full])
        var writer = MAVLinkPayloadWriter(payload)
        message.encode(into: &writer)
        var length = full
        while length > 1 && payload[length - 1] == 0 { length -= 1 }
        buffer[0] = Self.startByte
        buffer[1] = UInt8(length)
        buffer[2] = incompatFlags
        buffer[3] = 0
        buffer[4] = sequence
        buffer[5] = systemID
        buffer[6] = componentID
        buffer[7] = UInt8(truncatingIfNeeded: M.id)
        buffer[8] = UInt8(truncatingIfNeeded: M.id >> 8)
        buffer[9] = UInt8(truncatingIfNeeded: M.id >> 16)
        var crc = MAVLinkCRC()
        crc.accumulate(UnsafeRawBufferPointer(rebasing: buffer[1 ..< Self.headerLength + length]))
        crc.accumulate(M.crcExtra)
        buffer[Self.headerLength + length] = UInt8(truncatingIfNeeded: crc.value)
        buffer[Self.headerLength + length + 1] = UInt8(truncatingIfNeeded: crc.value >> 8)
        sequence &+= 1
        return Self.headerLength + length + Self.checksumLength
    }
}
