/// One problem in a spread file, with its position: `FILE:LINE:COL: key: message (allowed: …)`,
/// the format compilers use, so editors jump to it.
public struct SpreadError: Error, CustomStringConvertible, Equatable, Sendable {
    public var file: String
    /// 1-based line and column of the offending node, when the problem has a position.
    public var line: Int?
    public var column: Int?
    /// The configuration key the entry draws, when known.
    public var key: String?
    public var message: String
    /// What would be accepted instead.
    public var allowed: String?

    public init(file: String, line: Int? = nil, column: Int? = nil, key: String? = nil, message: String, allowed: String? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.key = key
        self.message = message
        self.allowed = allowed
    }

    public var description: String {
        var text = file
        if let line { text += ":\(line)" + (column.map { ":\($0)" } ?? "") }
        text += ": "
        if let key, !key.isEmpty { text += "\(key): " }
        text += message
        if let allowed, !allowed.isEmpty { text += " (allowed: \(allowed))" }
        return text
    }
}

/// Every problem found in one spread file, in file order (a user fixes the file in one pass).
public struct SpreadErrors: Error, CustomStringConvertible, Equatable, Sendable {
    public var errors: [SpreadError]

    public init(_ errors: [SpreadError]) { self.errors = errors }

    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
