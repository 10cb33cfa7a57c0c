#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PoiseTraces

/// Scratch files for tests: one fresh directory per call site.
enum TestFiles {
    static func directory() -> String {
        let parent = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(parent)/poise-traces-XXXXXX".utf8CString)
        let result = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(result != nil, "mkdtemp failed")
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Writes `bytes` to a new file named `name` in a fresh directory; returns its path.
    static func write(_ bytes: [UInt8], name: String = "trace.csv") -> String {
        let path = directory() + "/" + name
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(fd >= 0)
        bytes.withUnsafeBytes { _ = Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        return path
    }

    static func write(_ text: String, name: String = "trace.csv") -> String { write(Array(text.utf8), name: name) }

    static func read(_ path: String) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        precondition(fd >= 0, "cannot open \(path)")
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return bytes
    }

    /// All samples of a trace, or the error.
    static func samples(_ path: String) -> Result<[TraceSample], TraceError> {
        do throws(TraceError) {
            var reader = try TraceReader(path: path)
            var result: [TraceSample] = []
            while let sample = try reader.next() { result.append(sample) }
            return .success(result)
        } catch {
            return .failure(error)
        }
    }

    /// How reading a trace ended when `next()` may be called only so many times.
    enum BoundedRead {
        case records(Int)
        case error(TraceError)
        /// Still returning records when the calls ran out.
        case endless
    }

    /// Reads `bytes` as a trace (file name `F`), calling `next()` at most `limit` times.
    static func read(_ bytes: [UInt8], callingNextAtMost limit: Int) -> BoundedRead {
        let path = write(bytes)
        defer { remove(path) }
        do throws(TraceError) {
            var reader = try TraceReader(path: path)
            for count in 0..<limit {
                if try reader.next() == nil { return .records(count) }
            }
            return .endless
        } catch {
            var error = error
            error.file = "F"
            return .error(error)
        }
    }

    /// The error message reading `text` as a trace produces (file name replaced by `F`).
    static func error(reading text: String) -> String? {
        error(reading: Array(text.utf8))
    }

    static func error(reading bytes: [UInt8], name: String = "trace.csv") -> String? {
        let path = write(bytes, name: name)
        defer { remove(path) }
        switch samples(path) {
        case .success: return nil
        case .failure(let error):
            var error = error
            error.file = "F"
            return error.description
        }
    }

    /// Deletes a file made by `write` or in a `directory()`, and that directory if empty.
    static func remove(_ path: String) {
        unlink(path)
        rmdir(String(path[..<path.lastIndex(of: "/")!]))
    }

    static let header = "t,ax,ay,az,gx,gy,gz"
}
