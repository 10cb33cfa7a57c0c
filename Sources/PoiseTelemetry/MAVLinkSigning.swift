#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// MAVLink 2 message signing: a frame with incompat flag 1 carries, after its checksum, a
// link id, a 48-bit timestamp (10 µs units since 2015-01-01 UTC) and the first 6 bytes of
// SHA-256(secret key ‖ header ‖ payload ‖ checksum ‖ link id ‖ timestamp). A receiver keeps
// the last timestamp of each (system, component, link) stream and refuses any frame that does
// not move it forward: a recorded frame played again is refused.

/// The 32-byte secret both ends of a signed link share.
public struct MAVLinkSigningKey: Sendable, Equatable {
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) throws(TelemetryError) {
        guard bytes.count == 32 else { throw TelemetryError("a MAVLink signing key is 32 bytes, not \(bytes.count)") }
        self.bytes = bytes
    }

    /// Reads `telemetry.signing_key_file`: 32 raw bytes, or 64 hexadecimal digits (a line as
    /// `openssl rand -hex 32` prints it). The file must be readable by its owner only (0600 or
    /// 0400): a key others can read signs nothing.
    public init(file path: String) throws(TelemetryError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw TelemetryError("telemetry.signing_key_file \(path): \(String(cString: strerror(errno)))")
        }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw TelemetryError("telemetry.signing_key_file \(path): mode \(String(mode, radix: 8)) lets others read the key; "
                + "refused (chmod 600 \(path))")
        }
        guard let file = fopen(path, "rb") else {
            throw TelemetryError("telemetry.signing_key_file \(path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var content: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256)
        while content.count <= 256 {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            content += chunk[0 ..< n]
        }
        if content.count == 32 {
            try self.init(bytes: content)
            return
        }
        let text = String(decoding: content, as: UTF8.self).filter { !$0.isWhitespace }
        guard let hex = Self.hex(text[...]), hex.count == 32 else {
            throw TelemetryError("telemetry.signing_key_file \(path): expected 32 raw bytes or 64 hexadecimal digits, found \(content.count) bytes")
        }
        try self.init(bytes: hex)
    }

    static func hex(_ text: Substring) -> [UInt8]? {
        guard text.utf8.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index ..< next], radix: 16) else { return nil }
            out.append(byte)
            index = next
        }
        return out
    }
}

public enum MAVLinkSigning {
    /// Seconds from 1970-01-01 to 2015-01-01 (UTC), MAVLink's signing epoch.
    public static let epochOffset: Double = 1_420_070_400

    /// A signing timestamp (10 µs units since 2015) for a Unix time, s.
    public static func timestamp(unixTime: Double) -> UInt64 { UInt64(max(0, (unixTime - epochOffset) * 100_000)) }

    /// The 6-byte signature of `signedBytes` (header through timestamp).
    public static func signature(key: MAVLinkSigningKey, signedBytes: some Sequence<UInt8>) -> [UInt8] {
        var hash = SHA256()
        hash.update(key.bytes)
        hash.update(signedBytes)
        return Array(hash.finish().prefix(6))
    }
}

/// Signs outgoing frames: the framer sets the signed flag; this appends the block.
public struct MAVLinkSigner: Sendable {
    public let key: MAVLinkSigningKey
    public var linkID: UInt8 = 0
    /// The last timestamp used: each frame's is later than the one before, even within 10 µs.
    public private(set) var lastTimestamp: UInt64 = 0

    public init(key: MAVLinkSigningKey) { self.key = key }

    /// Appends the signature block to the `length`-byte frame at the start of `buffer`; the new
    /// length (the buffer must have ``MAVLinkFramer/signatureLength`` bytes to spare).
    public mutating func sign(_ buffer: UnsafeMutableRawBufferPointer, length: Int, unixTime: Double) -> Int {
        guard length > 0, buffer.count >= length + MAVLinkFramer.signatureLength else { return 0 }
        lastTimestamp = max(lastTimestamp + 1, MAVLinkSigning.timestamp(unixTime: unixTime))
        buffer[length] = linkID
        for i in 0 ..< 6 { buffer[length + 1 + i] = UInt8(truncatingIfNeeded: lastTimestamp >> UInt64(8 * i)) }
        let signature = MAVLinkSigning.signature(key: key, signedBytes: UnsafeRawBufferPointer(rebasing: buffer[0 ..< length + 7]))
        for i in 0 ..< 6 { buffer[length + 7 + i] = signature[i] }
        return length + MAVLinkFramer.signatureLength
    }
}

/// Checks incoming signed frames: the signature, and that each stream's timestamp moves forward.
public struct MAVLinkSignatureChecker: Sendable {
    public enum Verdict: Equatable, Sendable {
        case accepted
        case unsigned
        case badSignature
        /// Not later than the stream's last timestamp (a replay), or a new stream more than a
        /// minute behind this machine's clock.
        case replayed
    }

    public let key: MAVLinkSigningKey
    /// Last accepted timestamp per (system, component, link); bounded (oldest streams forgotten
    /// would let their frames replay, so instead new streams are refused once it is full).
    var streams: [UInt32: UInt64] = [:]
    public static let maximumStreams = 64

    public init(key: MAVLinkSigningKey) { self.key = key }

    public mutating func check(_ frame: MAVLinkFrame, unixTime: Double) -> Verdict {
        guard let block = frame.signature else { return .unsigned }
        guard MAVLinkSigning.signature(key: key, signedBytes: block.signedBytes) == block.signature else { return .badSignature }
        let stream = UInt32(frame.systemID) << 16 | UInt32(frame.componentID) << 8 | UInt32(block.linkID)
        if let last = streams[stream] {
            guard block.timestamp > last else { return .replayed }
        } else {
            let now = MAVLinkSigning.timestamp(unixTime: unixTime)
            guard block.timestamp + 60 * 100_000 >= now, streams.count < Self.maximumStreams else { return .replayed }
        }
        streams[stream] = block.timestamp
        return .accepted
    }
}
