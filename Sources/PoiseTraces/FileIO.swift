#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's description of `errno`.
func systemErrorMessage(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
}

/// Opens `path` for reading (`-` = standard input).
/// Every input is recorded so that no output of the same process can overwrite it.
func openForReading(_ path: String) throws(TraceError) -> Int32 {
    if path == "-" { InputFiles.record(STDIN_FILENO, path: nil); return STDIN_FILENO }
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    if fd < 0 { throw TraceError(file: path, line: 0, column: 0, message: "cannot open: \(systemErrorMessage(errno))") }
    var status = stat()
    if fstat(fd, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR {
        close(fd)
        throw TraceError(file: path, line: 0, column: 0, message: "cannot read: is a directory")
    }
    InputFiles.record(fd, path: path)
    return fd
}

private func systemWrite(_ fd: Int32, _ p: UnsafeMutablePointer<UInt8>, _ n: Int) -> Int { write(fd, p, n) }

/// Offset of the first `\n` in `[p, p + count)`; memchr is vectorised.
@inline(never) @_semantics("no_performance_analysis")
func findNewline(_ p: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int? {
    guard let found = memchr(p, 0x0A, count) else { return nil }
    return found.assumingMemoryBound(to: UInt8.self) - p
}

/// A file read through one fixed buffer, refilled with read(2): constant memory for any size.
///
/// The buffer has one spare byte after `capacity` so a final line without a line break can
/// be terminated in place (the number parsers rely on a non-numeric byte after each cell).
struct ByteInput: ~Copyable {
    let fd: Int32
    let ownsDescriptor: Bool
    let buffer: UnsafeMutablePointer<UInt8>
    let capacity: Int
    /// Unconsumed bytes are `buffer[start..<end]`.
    var start = 0
    var end = 0
    var atEndOfFile = false
    /// Bytes of the file before `buffer[0]`.
    var bufferOffset = 0
    /// errno of a failed read, 0 if none.
    var readError: Int32 = 0
    /// Whether the line last returned ended the file without a line break.
    var lastLineUnterminated = false

    init(fd: Int32, ownsDescriptor: Bool, capacity: Int) {
        self.fd = fd
        self.ownsDescriptor = ownsDescriptor
        self.capacity = capacity
        buffer = .allocate(capacity: capacity + 1)
        buffer.initialize(repeating: 0, count: capacity + 1)
    }

    deinit {
        buffer.deallocate()
        if ownsDescriptor { close(fd) }
    }

    /// Number of unconsumed bytes in the buffer.
    var available: Int { end - start }

    /// Moves unconsumed bytes to the front and reads more; false at end of file (or error).
    @inline(never) @_semantics("no_performance_analysis")
    mutating func refill() -> Bool {
        if atEndOfFile { return false }
        if start > 0 {
            let count = end - start
            if count > 0 { memmove(buffer, buffer + start, count) }
            bufferOffset += start
            start = 0
            end = count
        }
        while end < capacity {
            let n = retryingInterrupted { read(fd, buffer + end, capacity - end) }
            if n > 0 { end += n; return true }
            if n == 0 { atEndOfFile = true; return false }
            readError = errno
            atEndOfFile = true
            return false
        }
        return true
    }

    /// The next line (without `\n`, with a trailing `\r` if any) or nil at end of file.
    /// Returns `.tooLong` when a line does not fit in the buffer.
    @inline(__always) @_semantics("no_performance_analysis") @_noAllocation
    mutating func nextLine() -> LineResult {
        while true {
            let count = end - start
            if count > 0, let length = findNewline(buffer + start, count) {
                let lineStart = buffer + start
                start += length + 1
                return .line(UnsafePointer(lineStart), length)
            }
            if !refill() {
                if start == end { return .endOfFile }
                // Last line without a line break: terminate it in the spare byte.
                let lineStart = buffer + start
                let length = end - start
                buffer[end] = 0x0A
                start = end
                lastLineUnterminated = true
                return .line(UnsafePointer(lineStart), length)
            }
            if start == 0 && end == capacity && findNewline(buffer, capacity) == nil { return .tooLong }
        }
    }

    /// Copies the next `count` bytes out (refilling as needed), or nil if the file ends first.
    mutating func readBytes(_ count: Int) -> [UInt8]? {
        var result: [UInt8] = []
        result.reserveCapacity(min(count, capacity))  // a corrupt length must not reserve gigabytes
        while result.count < count {
            if start == end && !refill() { return nil }
            let n = min(count - result.count, end - start)
            result.append(contentsOf: UnsafeBufferPointer(start: buffer + start, count: n))
            start += n
        }
        return result
    }

    /// Byte offset in the file of the next unconsumed byte.
    var fileOffset: Int { bufferOffset + start }

    enum LineResult {
        case line(UnsafePointer<UInt8>, Int)
        case tooLong
        case endOfFile
    }
}

/// A file written through one fixed buffer with write(2), under the output-file policy
/// (`OutputFile`): closing commits it, dropping it without `close()` abandons it.
///
/// The writers mark where each record ends (`endRecord()`); a flush hands the kernel whole
/// records only and keeps a partial one in the buffer, so a process killed at any moment
/// leaves a file that ends on a whole record. When a write fails (a full disk) after part of
/// a flush went out, the file is cut back to the last whole record that reached it.
@usableFromInline
struct ByteOutput: ~Copyable {
    @usableFromInline let fd: Int32
    var file: OutputFile?
    @usableFromInline let buffer: UnsafeMutablePointer<UInt8>
    @usableFromInline let capacity: Int
    @usableFromInline var count = 0
    /// Bytes of the buffer up to the end of the last whole record (or header).
    @usableFromInline var wholeCount = 0
    /// Fixed record size (binary traces), or 0 when records are lines ending in `\n`.
    var recordSize = 0
    /// Where fixed-size records start in the buffer (after a header not yet written).
    var firstRecordAt = 0
    /// errno of the first failed write, 0 if none; later writes are dropped.
    @usableFromInline var writeError: Int32 = 0

    init(file: consuming OutputFile, capacity: Int) {
        fd = file.fd
        self.file = consume file
        self.capacity = capacity
        buffer = .allocate(capacity: capacity)
    }

    // Dropped without `close()` (an error path): `OutputFile`'s own deinit abandons the file.
    deinit { buffer.deallocate() }

    /// Room for at least `needed` bytes at `buffer + count` (needed ≤ capacity).
    // Helpers called from checked functions in other files are excluded at the call site
    // (debug builds compile files separately and cannot see the body) and carry their own
    // @_noAllocation, so their bodies are checked where they are defined.
    @inlinable @inline(__always) @_semantics("no_performance_analysis") @_noAllocation
    mutating func reserve(_ needed: Int) {
        if capacity - count < needed { makeRoom(needed) }
    }

    /// A record (row, binary record, the header) ends here.
    @inlinable @inline(__always) @_semantics("no_performance_analysis") @_noAllocation
    mutating func endRecord() { wholeCount = count }

    /// The header ends here: fixed-size records start after it.
    mutating func endHeader() {
        wholeCount = count
        firstRecordAt = count
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) {
        var rest = bytes
        while !rest.isEmpty {
            if count == capacity { flush() }
            let n = min(rest.count, capacity - count)
            UnsafeMutableRawPointer(buffer + count).copyMemory(from: rest.baseAddress!, byteCount: n)
            count += n
            rest = UnsafeRawBufferPointer(rebasing: rest[n...])
        }
    }

    mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    @usableFromInline @inline(never) @_semantics("no_performance_analysis")
    mutating func makeRoom(_ needed: Int) {
        flush()
        // A record longer than the buffer (long text cells) goes out in pieces.
        if capacity - count < needed { flushAll() }
    }

    /// Hands every whole record to the kernel; a partial record stays in the buffer (moved to
    /// its front). A buffer holding one unfinished record only is written as it is.
    @inlinable @inline(never) @_semantics("no_performance_analysis")
    mutating func flush() {
        let n = wholeCount == 0 && count == capacity ? count : wholeCount
        writeOut(n)
    }

    /// Writes everything in the buffer (at close).
    @usableFromInline @inline(never) @_semantics("no_performance_analysis")
    mutating func flushAll() { writeOut(count) }

    @usableFromInline @inline(never) @_semantics("no_performance_analysis")
    mutating func writeOut(_ n: Int) {
        if writeError == 0 && n > 0 {
            let (error, done) = Self.writeAllCounting(fd, buffer, n)
            if error != 0 {
                writeError = error
                cutBackToWholeRecord(written: done)
            }
        }
        let rest = count - n
        if rest > 0 { memmove(buffer, buffer + n, rest) }
        count = rest
        wholeCount = 0
        firstRecordAt = max(0, firstRecordAt - n)
    }

    /// After a failed write that wrote `written` bytes of the buffer: cuts the file back to
    /// the end of the last whole record among them (regular files only; pipes keep it all).
    mutating func cutBackToWholeRecord(written: Int) {
        guard written > 0 else { return }
        var keep = 0
        if recordSize > 0 {
            if written >= firstRecordAt { keep = firstRecordAt + (written - firstRecordAt) / recordSize * recordSize }
        } else {
            var index = written - 1
            while index >= 0 && buffer[index] != 0x0A { index -= 1 }
            keep = index + 1
        }
        guard keep < written else { return }
        let end = lseek(fd, 0, SEEK_CUR)
        guard end >= written else { return }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
        _ = ftruncate(fd, end - off_t(written - keep))
    }

    /// Writes `count` bytes completely; returns errno on failure, else 0.
    @usableFromInline @inline(never) @_semantics("no_performance_analysis")
    static func writeAll(_ fd: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int32 {
        writeAllCounting(fd, buffer, count).error
    }

    /// Writes `count` bytes completely; returns errno (0 on success) and the bytes written.
    @usableFromInline @inline(never) @_semantics("no_performance_analysis")
    static func writeAllCounting(_ fd: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> (error: Int32, written: Int) {
        var done = 0
        while done < count {
            let n = retryingInterrupted { systemWrite(fd, buffer + done, count - done) }
            if n >= 0 { done += n } else { return (errno, done) }
        }
        return (0, done)
    }

    /// Flushes, then commits the file (see `OutputFile.commit()`), or abandons it after a
    /// failed write — except a live recording, which keeps what reached it. Errors name the
    /// output ("standard output" for `-`).
    mutating func close() throws(TraceError) {
        flushAll()
        guard let file = file.take() else { return }
        if writeError != 0 {
            let name = file.name
            if file.isLive { try? file.commit() } else { file.discard() }
            throw TraceError(file: name, line: 0, column: 0, message: "cannot write: \(systemErrorMessage(writeError))")
        }
        try file.commit()
    }

    /// Makes what was handed to the kernel durable (a live recording's periodic sync).
    func sync() -> Int32 {
        fdatasync(fd) == 0 || errno == EINVAL ? 0 : errno
    }
}
