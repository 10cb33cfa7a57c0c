#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The signing timestamps a link must never go back behind: the last accepted of each incoming
/// (system, component, link) stream, and the one Poise's own frames are signed after.
public struct MAVLinkSigningState: Sendable, Equatable {
    /// Every frame Poise signs has a later timestamp than this (a reservation: see
    /// ``MAVLinkSigningStore/reservation``).
    public var sent: UInt64 = 0
    /// Last accepted timestamp per stream (``MAVLinkSignatureChecker/stream(system:component:link:)``).
    public var streams: [UInt32: UInt64] = [:]
    /// Written by a run that stopped cleanly: the values are exact. Otherwise (a crash, a
    /// power cut) the run may have accepted frames after the last write, so each stream's
    /// value is taken ``MAVLinkSigningStore/uncleanMargin`` later.
    public var clean = false

    public init(sent: UInt64 = 0, streams: [UInt32: UInt64] = [:], clean: Bool = false) {
        self.sent = sent
        self.streams = streams
        self.clean = clean
    }

    /// The file's text: `key = value` lines, `#` comments.
    ///
    ///     sent = 123456789
    ///     stream.255.190.0 = 123456700
    ///     clean = 1
    public var text: String {
        var lines = ["# poise run: MAVLink signing timestamps (10 us units since 2015-01-01 UTC). A frame whose timestamp is",
                     "# not above its stream's is refused; poise signs its own frames after `sent`. Do not edit.",
                     "sent = \(sent)"]
        for stream in streams.keys.sorted() {
            lines.append("stream.\(stream >> 16).\((stream >> 8) & 0xFF).\(stream & 0xFF) = \(streams[stream]!)")
        }
        if clean { lines.append("clean = 1") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Parses ``text``; the error names the line.
    public init(parsing text: String) throws(TelemetryError) {
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.filter { $0 != " " && $0 != "\t" && $0 != "\r" }
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(separator: "=", omittingEmptySubsequences: false)
            guard parts.count == 2, let value = UInt64(String(parts[1])) else {
                throw TelemetryError("line \(number + 1): expected `key = whole number`, found `\(raw)`")
            }
            let key = parts[0]
            if key == "sent" {
                sent = value
            } else if key == "clean" {
                clean = value == 1
            } else if key.hasPrefix("stream.") {
                let ids = key.dropFirst("stream.".count).split(separator: ".").map { UInt8(String($0)) }
                guard ids.count == 3, let system = ids[0], let component = ids[1], let link = ids[2] else {
                    throw TelemetryError("line \(number + 1): expected `stream.SYSTEM.COMPONENT.LINK`, found `\(key)`")
                }
                streams[MAVLinkSignatureChecker.stream(system: system, component: component, link: link)] = value
            } else {
                throw TelemetryError("line \(number + 1): unknown key `\(key)`")
            }
        }
    }
}

/// Keeps a signed link's ``MAVLinkSigningState`` in a file of the state directory
/// (`StateDirectory=poise`: `$STATE_DIRECTORY`, /var/lib/poise), so that no frame accepted in
/// an earlier run is accepted again and Poise's own timestamps never go back, whatever the
/// board's clock says at start.
///
/// Written atomically (a temporary file beside it, flushed to the disk, renamed over it, the
/// directory flushed), from the receive thread only and at most every ``flushInterval``
/// (never from the tick), and once more, marked clean, at the end of the run. Poise's own
/// timestamp is stored as a reservation ``reservation`` ahead of the last one used, renewed
/// when half of it is used: the file changes for it about once every 30 s.
public final class MAVLinkSigningStore: @unchecked Sendable {
    public static let fileName = "mavlink-signing.state"
    /// Seconds between two writes at most (while something changed).
    public static let flushInterval = 2.0
    /// Added to each stream's stored timestamp after a run that did not stop cleanly: the
    /// frames it may have accepted after its last write were at most this much later.
    public static let uncleanMargin: UInt64 = 3 * 100_000
    /// How far ahead of its last used timestamp Poise's own is stored (60 s).
    public static let reservation: UInt64 = 60 * 100_000

    /// Where the state lives: `option` (`poise run --state-dir`), else systemd's
    /// `$STATE_DIRECTORY` (its first directory), else /var/lib/poise when it exists; nil when
    /// none is there.
    public static func directory(option: String?) -> String? {
        if let option, !option.isEmpty { return option }
        if let value = getenv("STATE_DIRECTORY"), let first = String(cString: value).split(separator: ":").first {
            return String(first)
        }
        var info = stat()
        if stat(defaultDirectory, &info) == 0, UInt32(info.st_mode) & 0o170000 == 0o040000 { return defaultDirectory }
        return nil
    }

    public static let defaultDirectory = "/var/lib/poise"

    public let path: String
    /// The state as found at the start, margins applied: what the checker and signer start from.
    public let startingState: MAVLinkSigningState
    /// The state last written.
    public private(set) var written: MAVLinkSigningState
    var lastWrite = -Double.infinity
    /// Files written (the start's included), and the last write's error (nil when it worked).
    public private(set) var writes = 0
    public private(set) var lastError: String?

    /// Reads `directory`'s file (none: an empty state) and writes it back at once, marked not
    /// clean (so a crash from now on is noticed at the next start). Throws with the reason
    /// when the directory or the file cannot be read or written: the link would not be safe.
    public init(directory: String) throws(TelemetryError) {
        path = directory.hasSuffix("/") ? directory + Self.fileName : directory + "/" + Self.fileName
        var info = stat()
        guard stat(directory, &info) == 0 else {
            throw TelemetryError("state directory \(directory): \(String(cString: strerror(errno)))")
        }
        guard UInt32(info.st_mode) & 0o170000 == 0o040000 else { throw TelemetryError("state directory \(directory): not a directory") }
        var state = MAVLinkSigningState()
        if let text = try Self.readText(path) {
            do { state = try MAVLinkSigningState(parsing: text) } catch {
                throw TelemetryError("\(path): \(error.description) (the signing state: remove the file to start over, "
                    + "and frames of earlier runs may be accepted again)")
            }
        }
        if !state.clean {
            for (stream, value) in state.streams { state.streams[stream] = value + Self.uncleanMargin }
        }
        state.clean = false
        startingState = state
        written = state
        if let error = writeFile(state) { throw TelemetryError(error) }
        lastWrite = -Double.infinity
    }

    /// The state to keep after Poise signed up to `lastSent` and the checker accepted `streams`.
    public func state(streams: [UInt32: UInt64], lastSent: UInt64) -> MAVLinkSigningState {
        var state = written
        state.streams = streams
        if lastSent + Self.reservation / 2 > written.sent { state.sent = lastSent + Self.reservation }
        state.clean = false
        return state
    }

    /// Writes `state` when it differs from the last written and ``flushInterval`` has passed
    /// since that write (`now`: a monotonic clock, s), or at once with `final` (the end of the
    /// run: marked clean). True when it wrote.
    @discardableResult
    public func update(_ state: MAVLinkSigningState, now: Double, final: Bool = false) -> Bool {
        var state = state
        state.clean = final
        guard state != written, final || now - lastWrite >= Self.flushInterval else { return false }
        lastWrite = now
        lastError = writeFile(state)
        return lastError == nil
    }

    /// Writes the file atomically; the reason when it failed.
    func writeFile(_ state: MAVLinkSigningState) -> String? {
        let temporary = path + ".new"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return "\(temporary): \(String(cString: strerror(errno)))" }
        let bytes = Array(state.text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                unlink(temporary)
                return "\(temporary): \(reason)"
            }
            done += n
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard synced, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            return "\(path): \(reason)"
        }
        if let slash = path.lastIndex(of: "/") {
            let directory = open(String(path[..<slash]).isEmpty ? "/" : String(path[..<slash]), O_RDONLY | O_CLOEXEC | O_DIRECTORY)
            if directory >= 0 { _ = fsync(directory); close(directory) }
        }
        written = state
        writes += 1
        return nil
    }

    /// The file's text, nil when there is none; a FIFO, device or directory is refused unread.
    static func readText(_ path: String) throws(TelemetryError) -> String? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        if fd < 0, errno == ENOENT { return nil }
        guard fd >= 0 else { throw TelemetryError("\(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, UInt32(info.st_mode) & 0o170000 == 0o100000 else {
            throw TelemetryError("\(path): not a regular file")
        }
        var content: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while content.count < 1 << 20 {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw TelemetryError("\(path): \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            content += chunk[0 ..< n]
        }
        return String(decoding: content, as: UTF8.self)
    }
}
