/// A problem with a trace file, located precisely enough to fix it in an editor.
///
/// For text (CSV) traces `line` and `column` are 1-based: the line in the file and the
/// character column where the offending cell starts. For binary traces `line` is the
/// 1-based record number (0 = the file header) and `column` is the 1-based byte within
/// that record or header. I/O problems that have no position use `line == 0` and
/// `column == 0` and print as `FILE: message`.
public struct TraceError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The path as given by the caller (`-` for standard input/output).
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `FILE:LINE:COLUMN: message`, or `FILE: message` when there is no position.
    public var description: String {
        if line == 0 && column == 0 { return "\(file): \(message)" }
        return "\(file):\(line):\(column): \(message)"
    }
}
