import Foundation
import PoiseTraces

/// A runtime failure reported as `poise: message` with exit status 1.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The whole text of a small file (scripts, configs); a clear error otherwise.
func readTextFile(_ path: String) throws -> String {
    guard let data = FileManager.default.contents(atPath: path) else {
        throw CLIError("\(path): cannot read file (\(FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file"))")
    }
    guard let text = String(data: data, encoding: .utf8) else {
        throw CLIError("\(path):1:1: not UTF-8 text")
    }
    return text
}

/// True when the file name asks for the binary trace format.
func isBinaryTracePath(_ path: String) -> Bool {
    path.hasSuffix(".ptrace") || path.hasSuffix(".bin")
}

/// A trace writer for either format, chosen by the output file's extension.
enum TraceSink: ~Copyable {
    case csv(CSVTraceWriter)
    case binary(BinaryTraceWriter)

    init(path: String, metadata: TraceMetadata, columns: [String]) throws {
        if isBinaryTracePath(path) {
            self = .binary(try BinaryTraceWriter(path: path, metadata: metadata, columns: columns))
        } else {
            self = .csv(try CSVTraceWriter(path: path, metadata: metadata, columns: columns))
        }
    }

    mutating func write(_ sample: TraceSample) {
        switch consume self {
        case .csv(var w): w.write(sample); self = .csv(w)
        case .binary(var w): w.write(sample); self = .binary(w)
        }
    }

    consuming func close() throws {
        switch consume self {
        case .csv(var w): try w.close()
        case .binary(var w): try w.close()
        }
    }
}

/// Writes `message` and a newline to standard error.
func printError(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
}
