/// A problem in a motion script, with its position: `name:LINE:COLUMN: message`.
public struct MotionScriptError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The script's name as given to the parser (a file path or `<script>`).
    public var scriptName: String
    /// 1-based line.
    public var line: Int
    /// 1-based column (in Unicode scalars).
    public var column: Int
    /// What is wrong, lower case, no trailing period.
    public var message: String

    public init(scriptName: String, line: Int, column: Int, message: String) {
        self.scriptName = scriptName
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(scriptName):\(line):\(column): \(message)" }
}
