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

/// Writes `message` and a newline to standard error.
func printError(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
}
