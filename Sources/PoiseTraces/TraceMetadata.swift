/// The comment lines at the top of a trace, in order, kept verbatim.
///
/// A line of the form `# key=value key2=value2` (every space-separated word a `key=value`
/// pair) carries metadata; any other `#` line is a free comment. Tools that rewrite a trace
/// copy every line unchanged, except lines whose values were changed with `set(_:_:)`.
public struct TraceMetadata: Equatable, Sendable {
    /// The lines as they appear in the file, each starting with `#`, without line ending.
    public private(set) var lines: [String]

    /// Empty metadata.
    public init() { lines = [] }

    /// Metadata from comment lines (each must start with `#` and contain no line break).
    public init(lines: [String]) {
        for line in lines { precondition(Self.isValidLine(line), "not a comment line: \(line)") }
        self.lines = lines
    }

    /// Lines read from a file: they start with `#` and have no `\n`; a stray `\r` inside
    /// a line is kept as it is.
    init(uncheckedLines lines: [String]) { self.lines = lines }

    /// The value of the last `key=value` pair with this key, if any.
    public subscript(key: String) -> String? {
        for line in lines.reversed() {
            let pairs = Self.pairs(in: line)
            if let pair = pairs.last(where: { $0.key == key }) { return pair.value }
        }
        return nil
    }

    /// All `key=value` pairs in file order.
    public var pairs: [(key: String, value: String)] { lines.flatMap { Self.pairs(in: $0) } }

    /// Sets `key` to `value`: rewrites the pair where it was last defined, or appends a
    /// `# key=value` line. Keys and values are single words (no spaces, `=` only in values).
    public mutating func set(_ key: String, _ value: String) {
        precondition(!key.isEmpty && !key.contains(where: { $0 == "=" || $0.isWhitespace || $0 == "#" }),
                     "invalid metadata key: \(key)")
        precondition(!value.contains(where: { $0.isWhitespace }), "invalid metadata value: \(value)")
        for index in lines.indices.reversed() where Self.pairs(in: lines[index]).contains(where: { $0.key == key }) {
            var words = lines[index].dropFirst().split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            if let last = words.lastIndex(where: { $0.hasPrefix(key + "=") }) {
                words[last] = key + "=" + value
                lines[index] = "#" + words.joined(separator: " ")
                return
            }
        }
        lines.append("# \(key)=\(value)")
    }

    /// Appends a free comment line `# text`.
    public mutating func append(comment text: String) {
        let line = "# " + text
        precondition(Self.isValidLine(line), "comment must not contain a line break")
        lines.append(line)
    }

    /// Appends a comment line verbatim; it must start with `#`.
    public mutating func append(line: String) {
        precondition(Self.isValidLine(line), "not a comment line: \(line)")
        lines.append(line)
    }

    static func isValidLine(_ line: String) -> Bool {
        line.hasPrefix("#") && !line.contains(where: { $0 == "\n" || $0 == "\r" })
    }

    /// The pairs of a metadata line; empty for a free comment.
    static func pairs(in line: String) -> [(key: String, value: String)] {
        guard line.hasPrefix("#") else { return [] }
        let words = line.dropFirst().split(separator: " ")
        var result: [(key: String, value: String)] = []
        for word in words {
            guard let equals = word.firstIndex(of: "="), equals != word.startIndex else { return [] }
            result.append((String(word[..<equals]), String(word[word.index(after: equals)...])))
        }
        return result
    }
}
