import ArgumentParser
import Foundation
import PoiseTraces
import Synchronization

/// A runtime failure reported as `poise: message` with exit status 1 (`CommandOutcome`).
struct CLIError: Error, CustomStringConvertible {
    var description: String
    /// Printed without the `poise: ` prefix: lines that carry their own (a configuration's
    /// located problems, several `poise:` lines).
    var printsAsIs = false

    init(_ description: String) { self.description = description }

    /// Several problems, each printed as `poise: problem` on its own line.
    init(problems: [String]) {
        description = problems.map { "poise: \($0)" }.joined(separator: "\n")
        printsAsIs = true
    }

    /// Text printed as it is (it names its file and line itself).
    static func asIs(_ text: String) -> CLIError {
        var error = CLIError(text)
        error.printsAsIs = true
        return error
    }
}

/// The whole text of a small file (scripts, configs); a clear error otherwise.
func readTextFile(_ path: String) throws -> String {
    InputFiles.record(path: path)
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

/// Standard output of the command-line tool: every `print` in this module goes through
/// `StandardOutput.write` (below), which remembers the first failed write so that
/// `CommandOutcome` can report it and exit 1 instead of 0.
enum StandardOutput {
    private static let error = Atomic<Int32>(0)

    /// errno of the first failed write, 0 if none.
    static var firstError: Int32 { error.load(ordering: .relaxed) }

    static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var done = 0
            while done < bytes.count {
                let n = retryingInterrupted { Foundation.write(STDOUT_FILENO, bytes.baseAddress! + done, bytes.count - done) }
                if n >= 0 { done += n; continue }
                _ = error.compareExchange(expected: 0, desired: errno, ordering: .relaxed)
                return
            }
        }
    }
}

/// Shadows `Swift.print` in this module so every line reaches `StandardOutput`.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    StandardOutput.write(items.map { "\($0)" }.joined(separator: separator) + terminator)
}

/// How every command that reads traces treats a recoverable problem.
struct TraceInputOptions: ParsableArguments {
    @Flag(help: "Refuse a binary trace cut off inside a record instead of reading it up to its last whole record.")
    var strict = false

    func apply() { TraceWarnings.strict = strict }
}
