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

    /// Reads `telemetry.signing_key_file`: one format, 64 hexadecimal digits (a line as
    /// `openssl rand -hex 32` or `sha256sum | cut -c1-64` prints it; white space around them
    /// is ignored). The file must be a regular file (opened without blocking and checked with
    /// fstat: a FIFO, device or directory is refused, never read), readable by its owner only
    /// (0600 or 0400: a key others can read signs nothing), and the key not all zeros. Each
    /// refusal says what was found (``fileError(_:found:)``).
    public init(file path: String) throws(TelemetryError) {
        let name = "telemetry.signing_key_file \(path)"
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw TelemetryError("\(name): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw TelemetryError("\(name): \(String(cString: strerror(errno)))") }
        if let kind = Self.notRegular(UInt32(info.st_mode)) {
            throw TelemetryError("\(name): \(kind), not a regular file; refused (the key is 64 hexadecimal digits in a file)")
        }
        let mode = UInt32(info.st_mode) & 0o777
        guard mode & 0o077 == 0 else {
            throw TelemetryError("\(name): mode \(String(mode, radix: 8)) lets others read the key; "
                + "refused (chmod 600 \(path))")
        }
        var content: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256)
        while content.count <= Self.maximumFileLength {
            let n = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw TelemetryError("\(name): \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            content += chunk[0 ..< n]
        }
        switch Self.parse(content) {
        case .success(let bytes): try self.init(bytes: bytes)
        case .failure(let found): throw TelemetryError("\(name): expected 64 hexadecimal digits, found \(found.description)")
        }
    }

    /// Longer than this, a key file is refused unread beyond it.
    public static let maximumFileLength = 4096

    /// What a key file held instead of a key.
    public enum Found: Error, Equatable, Sendable, CustomStringConvertible {
        case empty
        case tooLong
        /// Text of hexadecimal digits, this many (not 64).
        case digits(Int)
        /// A byte that is neither a hexadecimal digit nor white space, at this offset.
        case notHex(byte: UInt8, offset: Int)
        /// Exactly 32 bytes that are not hexadecimal text: a raw key, which is not this format.
        case rawBytes
        case allZero

        public var description: String {
            switch self {
            case .empty: "an empty file"
            case .tooLong: "more than \(MAVLinkSigningKey.maximumFileLength) bytes"
            case .digits(let n): "\(n) hexadecimal digit\(n == 1 ? "" : "s")"
            case .notHex(let byte, let offset):
                byte >= 0x21 && byte < 0x7F
                    ? "'\(String(UnicodeScalar(byte)))' at byte \(offset), not a hexadecimal digit"
                    : "byte 0x\(byte < 16 ? "0" : "")\(String(byte, radix: 16)) at byte \(offset), not a hexadecimal digit"
            case .rawBytes: "32 bytes that are not hexadecimal text (a raw key? write it as hex: od -An -tx1 KEY | tr -d ' \\n')"
            case .allZero: "a key of all zeros; refused (make one: openssl rand -hex 32)"
            }
        }
    }

    /// A key file's content: 64 hexadecimal digits, white space around them ignored.
    public static func parse(_ content: [UInt8]) -> Result<[UInt8], Found> {
        if content.count > maximumFileLength { return .failure(.tooLong) }
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }
        func digit(_ b: UInt8) -> UInt8? {
            switch b {
            case 0x30 ... 0x39: b - 0x30
            case 0x41 ... 0x46: b - 0x41 + 10
            case 0x61 ... 0x66: b - 0x61 + 10
            default: nil
            }
        }
        var nibbles: [UInt8] = []
        var seenSpaceAfterDigits = false
        for (offset, b) in content.enumerated() {
            if isSpace(b) {
                if !nibbles.isEmpty { seenSpaceAfterDigits = true }
                continue
            }
            guard let d = digit(b), !seenSpaceAfterDigits else {
                if content.count == 32 { return .failure(.rawBytes) }
                return .failure(.notHex(byte: b, offset: offset))
            }
            nibbles.append(d)
        }
        if nibbles.isEmpty { return .failure(content.count == 32 ? .rawBytes : .empty) }
        guard nibbles.count == 64 else { return .failure(.digits(nibbles.count)) }
        var bytes: [UInt8] = []
        for i in stride(from: 0, to: 64, by: 2) { bytes.append(nibbles[i] << 4 | nibbles[i + 1]) }
        if bytes.allSatisfy({ $0 == 0 }) { return .failure(.allZero) }
        return .success(bytes)
    }

    /// What a file of this `st_mode` is when it is not a regular file, or nil.
    static func notRegular(_ mode: UInt32) -> String? {
        switch mode & 0o170000 {
        case 0o100000: nil
        case 0o040000: "a directory"
        case 0o010000: "a FIFO"
        case 0o020000: "a character device"
        case 0o060000: "a block device"
        case 0o140000: "a socket"
        default: "not a regular file"
        }
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

    /// A signer whose every timestamp is later than `timestamp` (the one an earlier run
    /// reserved: ``MAVLinkSigningStore``), whatever the clock says.
    public init(key: MAVLinkSigningKey, after timestamp: UInt64) {
        self.key = key
        lastTimestamp = timestamp
    }

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
///
/// Across restarts too: built from a ``MAVLinkSigningState`` (the state directory's, see
/// ``MAVLinkSigningStore``), a stream's frame must be later than the last one accepted in any
/// earlier run, whatever the board's clock says. A frame more than ``maximumAhead`` ahead of
/// the board's clock — or of ``clockFloor``, the newest timestamp an earlier run accepted,
/// when that is later (a board without RTC that booted without network time) — is refused and
/// not remembered (counted in ``aheadRefusals``), so a key holder's wrong clock cannot lock a
/// stream. A new stream may start at most a minute behind the board's clock (or
/// ``clockFloor`` less ``maximumAhead``, when that is later).
public struct MAVLinkSignatureChecker: Sendable {
    public enum Verdict: Equatable, Sendable {
        case accepted
        case unsigned
        case badSignature
        /// Not later than the stream's last timestamp (a replay, also of an earlier run's frame),
        /// a new stream more than a minute behind, or a timestamp too far ahead
        /// (``lastRefusalWasAhead``).
        case replayed
    }

    public let key: MAVLinkSigningKey
    /// Last accepted timestamp per (system, component, link); bounded (oldest streams forgotten
    /// would let their frames replay, so instead new streams are refused once it is full).
    public private(set) var streams: [UInt32: UInt64] = [:]
    public static let maximumStreams = 64
    /// The newest timestamp an earlier run accepted (0 without a stored state): the time is
    /// at least this, less ``maximumAhead``.
    public private(set) var clockFloor: UInt64 = 0
    /// How far behind the board's clock a new stream may start: a minute.
    public static let newStreamWindow: UInt64 = 60 * 100_000
    /// How far ahead of the board's clock (or ``clockFloor``) a timestamp may be: five minutes.
    public static let maximumAhead: UInt64 = 5 * 60 * 100_000
    /// Frames refused for a timestamp too far ahead, and by how much the last one was (10 µs).
    public private(set) var aheadRefusals = 0
    public private(set) var lastAheadBy: UInt64 = 0
    /// Whether the last ``Verdict/replayed`` was a timestamp too far ahead.
    public private(set) var lastRefusalWasAhead = false

    public init(key: MAVLinkSigningKey) { self.key = key }

    /// A checker that remembers an earlier run's streams (``MAVLinkSigningStore/startingState``).
    public init(key: MAVLinkSigningKey, state: MAVLinkSigningState) {
        self.key = key
        streams = state.streams
        clockFloor = state.streams.values.max() ?? 0
    }

    /// What to persist of the incoming side.
    public var incoming: [UInt32: UInt64] { streams }

    public static func stream(system: UInt8, component: UInt8, link: UInt8) -> UInt32 {
        UInt32(system) << 16 | UInt32(component) << 8 | UInt32(link)
    }

    public mutating func check(_ frame: MAVLinkFrame, unixTime: Double) -> Verdict {
        guard let block = frame.signature else { return .unsigned }
        guard MAVLinkSigning.signature(key: key, signedBytes: block.signedBytes) == block.signature else { return .badSignature }
        lastRefusalWasAhead = false
        let stream = Self.stream(system: frame.systemID, component: frame.componentID, link: block.linkID)
        let board = MAVLinkSigning.timestamp(unixTime: unixTime)
        let latest = max(board, clockFloor)
        if block.timestamp > latest + Self.maximumAhead {
            aheadRefusals += 1
            lastAheadBy = block.timestamp - latest
            lastRefusalWasAhead = true
            return .replayed
        }
        if let last = streams[stream] {
            guard block.timestamp > last else { return .replayed }
        } else {
            let earliest = max(board, clockFloor > Self.maximumAhead ? clockFloor - Self.maximumAhead : 0)
            guard block.timestamp + Self.newStreamWindow >= earliest, streams.count < Self.maximumStreams else { return .replayed }
        }
        streams[stream] = block.timestamp
        return .accepted
    }
}
