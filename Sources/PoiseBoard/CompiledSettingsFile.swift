#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PoiseFlightSettings
import PoiseTraces

/// Reads a compiled configuration (`poise compile`'s file) from disk.
enum CompiledSettingsFile {
    /// The largest file read, bytes (a compiled configuration is a few kilobytes).
    static let maximumBytes = 1 << 20

    /// The settings in the file at `path`; a problem names the file and, in the file, the
    /// byte offset (`FILE: byte offset N: …`).
    static func settings(path: String) throws(TraceError) -> FlightSettings {
        let bytes = try readBytes(path: path)
        do throws(CompiledSettingsError) {
            return try CompiledSettings.decode(bytes)
        } catch {
            throw TraceError(file: path, line: 0, column: 0, message: error.description)
        }
    }

    /// A text file the compiled file names (a setpoint file), at most `limit` bytes.
    static func readText(path: String, limit: Int) throws(TraceError) -> String {
        String(decoding: try readBytes(path: path, limit: limit, what: "a setpoint file"), as: UTF8.self)
    }

    static func readBytes(path: String, limit: Int = maximumBytes, what: String = "a compiled configuration") throws(TraceError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw TraceError(file: path, line: 0, column: 0, message: "cannot open: \(message(errno))") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw TraceError(file: path, line: 0, column: 0, message: "cannot read: \(message(errno))")
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= limit else {
                throw TraceError(file: path, line: 0, column: 0, message: "more than \(limit) bytes: not " + what)
            }
        }
    }

    static func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }

    static func message(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
