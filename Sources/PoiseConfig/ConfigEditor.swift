/// Sets keys in the text of a configuration file, leaving every other line as it was.
///
/// `poise calibrate --save` writes its results into the user's own file, comments and all, so
/// this edits lines rather than re-serialising a parsed tree. It understands the block style
/// Poise ships (`key:` lines, nested by indentation): a key that exists has its value replaced
/// (a comment after it is kept); a missing key, and any missing section above it, is inserted
/// at the end of its section with that section's indentation. A section written on one line
/// in flow style (`pitch_rate: {kp: 0.2, ki: 0.2}`, as the shipped quad file has it) is edited
/// in place in that style (``FlowMapping``). Anything it cannot edit safely, such as a flow
/// section spread over several lines or a whole file in flow style, is refused with the line
/// to rewrite. ``setting(_:in:file:)-(ConfigValue)`` then reloads the result and refuses
/// unless it validates, reads back the new values and left every other value alone.
///
/// ```swift
/// let updated = try ConfigEditor.setting([(path: "sensor.calibration.gyroscope_bias",
///                                          value: .vector3([0.02, -0.01, 0.003]))],
///                                        in: text, file: "board.yaml")
/// ```
public enum ConfigEditor {
    /// Sets each schema key to its value and checks the outcome by loading it.
    ///
    /// - Throws: ``ConfigError`` when `text` does not load, a path is not a schema key, the
    ///   layout cannot be edited safely, or the edited text would not read back exactly the
    ///   old values with the new ones in place.
    public static func setting(_ values: [(path: String, value: ConfigValue)], in text: String,
                               file: String) throws(ConfigError) -> String {
        var rendered: [(path: String, yaml: String)] = []
        for (path, value) in values {
            guard let key = ConfigSchema.key(path) else {
                throw ConfigError(file: file, key: path, message: "not a configuration key")
            }
            rendered.append((path, yaml(value, key: key)))
        }
        let before: ConfigTable
        do {
            before = try ConfigParser.parse(text: text, file: file)
        } catch {
            throw ConfigError(file: file, message: "does not load, so it is left as it is; fix it first:\n\(error)")
        }
        let edited = try setting(rendered, in: text, file: file)
        let after: ConfigTable
        do {
            after = try ConfigParser.parse(text: edited, file: file)
        } catch {
            throw ConfigError(file: file, message: "the edited text would not load, so it is left as it is (a bug in the editor; please report it):\n\(error)")
        }
        var expected = before
        for (path, value) in values { expected[path] = value }
        for path in Set(expected.values.keys).union(after.values.keys) where expected[path] != after[path] {
            let changed = values.contains { $0.path == path }
            throw ConfigError(file: file, key: path, message: changed
                ? "the edited text would not read back the value written, so it is left as it is"
                : "the edit would change this key too, so the file is left as it is")
        }
        return edited
    }

    /// The text of one value as the key's line would carry it, e.g. `[0.0, 0.5, -1.25]`.
    public static func yaml(_ value: ConfigValue, key: ConfigKey) -> String {
        ConfigWriter.scalarText(value, key: key)
    }

    /// Nested block YAML holding just these keys, for printing a snippet to paste.
    public static func snippet(_ values: [(path: String, value: ConfigValue)]) -> String {
        let rendered = values.compactMap { entry in
            ConfigSchema.key(entry.path).map { (path: entry.path, yaml: yaml(entry.value, key: $0)) }
        }
        return (try? setting(rendered, in: "", file: "snippet")) ?? ""
    }

    /// Sets each dotted `path` to the YAML text `yaml` (one line) by editing lines; no schema
    /// check and no reload. Lines outside the replaced values are kept byte for byte.
    public static func setting(_ values: [(path: String, yaml: String)], in text: String,
                               file: String) throws(ConfigError) -> String {
        var document = EditableDocument(text)
        try document.openRootMapping(file: file)
        for (path, yaml) in values {
            let names = path.split(separator: ".").map(String.init)
            guard !names.isEmpty, !names.contains(where: \.isEmpty) else {
                throw ConfigError(file: file, key: path, message: "not a dotted key path")
            }
            try document.set(names, to: yaml, file: file)
        }
        return document.text
    }
}

extension ConfigEditor {
    /// `text` with the comments that say how the values at `paths` came about replaced by
    /// `note` (one comment line): a block of comment lines right above a line on one of the
    /// paths (the key itself or a section holding it) that says "tuned by". `poise tune
    /// --save` writes new gains; a note that credits the old ones to something else is stale.
    public static func replacingTuningNotes(in text: String, above paths: [String], with note: String) -> String {
        var document = EditableDocument(text)
        var targets = Set<Int>()
        for path in paths { targets.formUnion(document.lineIndices(path.split(separator: ".").map(String.init))) }
        for index in targets.sorted(by: >) {
            var start = index
            while start > 0 {
                let line = EditableDocument.parse(document.lines[start - 1])
                guard !line.isContent, document.lines[start - 1].contains("#") else { break }
                start -= 1
            }
            guard (start..<index).contains(where: { document.lines[$0].lowercased().contains("tuned by") }) else { continue }
            let spaces = String(repeating: " ", count: EditableDocument.parse(document.lines[index]).indent)
            document.lines.replaceSubrange(start..<index, with: [spaces + "# " + note + document.carriageReturn(of: index)])
        }
        return document.text
    }
}

/// A configuration file as lines, with just enough YAML block structure to edit keys.
struct EditableDocument {
    var lines: [String]
    let endsWithNewline: Bool
    /// "\r" when the file uses CRLF line ends; added to the lines we write.
    let carriageReturn: String
    /// Spaces per nesting level for new sections: the file's own, else 2.
    let step: Int

    init(_ text: String) {
        // By scalars: "\r\n" is one Character, so a Character split would miss CRLF line ends.
        var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
        endsWithNewline = text.isEmpty || text.hasSuffix("\n")
        if text.hasSuffix("\n") { lines.removeLast() }
        if text.isEmpty { lines = [] }
        self.lines = lines
        carriageReturn = lines.contains { $0.hasSuffix("\r") } ? "\r" : ""
        let indents = lines.map(Self.parse).filter(\.isContent).map(\.indent).filter { $0 > 0 }
        step = indents.min() ?? 2
    }

    var text: String {
        lines.isEmpty ? "" : lines.joined(separator: "\n") + (endsWithNewline ? "\n" : "")
    }

    /// One line, taken apart.
    struct Line {
        var indent: Int
        /// Not blank and not only a comment.
        var isContent: Bool
        /// The key of a `key: …` line.
        var key: String?
        /// Where the text after `key:` starts.
        var valueStart: String.Index?
        /// The value after the colon without its comment, trimmed (empty when on later lines).
        var value: Substring = ""
        /// The comment after the value with the spaces before it, e.g. `  # measured`.
        var comment: Substring = ""
    }

    static func parse(_ raw: String) -> Line {
        let text = raw.hasSuffix("\r") ? raw.dropLast() : Substring(raw)
        let indent = text.prefix { $0 == " " }.count
        let body = text.dropFirst(indent)
        guard let first = body.first, first != "#", !body.allSatisfy({ $0 == " " || $0 == "\t" }) else {
            return Line(indent: indent, isContent: false)
        }
        var line = Line(indent: indent, isContent: true)
        // The key: plain up to `: ` (or a final `:`), or quoted.
        var keyEnd: String.Index?
        var key: String?
        if first == "\"" || first == "'" {
            if let close = body.dropFirst().firstIndex(of: first) {
                key = String(body[body.index(after: body.startIndex)..<close])
                let after = body.index(after: close)
                let colon = body[after...].drop { $0 == " " }
                if colon.first == ":" { keyEnd = colon.startIndex }
            }
        } else if first != "-" || body.dropFirst().first.map({ $0 != " " }) == true {
            var index = body.startIndex
            while index < body.endIndex {
                if body[index] == ":" {
                    let next = body.index(after: index)
                    if next == body.endIndex || body[next] == " " || body[next] == "\t" {
                        keyEnd = index
                        break
                    }
                }
                if body[index] == "#", index > body.startIndex, body[body.index(before: index)] == " " { break }
                index = body.index(after: index)
            }
            if let keyEnd { key = String(body[..<keyEnd]).trimmingTrailingSpaces }
        }
        guard let keyEnd, let key else { return line }
        line.key = key
        let afterColon = body.index(after: keyEnd)
        line.valueStart = afterColon
        let rest = body[afterColon...]
        // A comment starts at a `#` after whitespace (numbers, lists and plain words never hold one).
        var commentStart = rest.endIndex
        var previous: Character = " "
        for index in rest.indices {
            if rest[index] == "#", previous == " " || previous == "\t" { commentStart = index; break }
            previous = rest[index]
        }
        let valuePart = rest[..<commentStart]
        line.value = Substring(valuePart.drop { $0 == " " || $0 == "\t" }.trimmingTrailingSpaces)
        if commentStart < rest.endIndex {
            let spaces = valuePart.reversed().prefix { $0 == " " || $0 == "\t" }.count
            line.comment = rest[rest.index(commentStart, offsetBy: -spaces)...]
        }
        return line
    }

    /// Makes the root mapping one that keys can be added to: `{}`, the empty flow mapping a
    /// file of all defaults holds, is taken out (a comment after it stays); any other root
    /// written in flow style is refused.
    mutating func openRootMapping(file: String) throws(ConfigError) {
        for index in lines.indices {
            let line = Self.parse(lines[index])
            guard line.isContent, line.indent == 0 else { continue }
            let raw = lines[index].hasSuffix("\r") ? String(lines[index].dropLast()) : lines[index]
            guard raw.first == "{" || raw.first == "[" else { continue }
            let comment = raw.dropFirst(2).drop { $0 == " " || $0 == "\t" }
            if raw.hasPrefix("{}"), comment.isEmpty || comment.first == "#" {
                if comment.isEmpty { lines.remove(at: index) } else { lines[index] = String(comment) + carriageReturn }
                return
            }
            throw ConfigError(file: file, line: index + 1, message:
                "the whole file is written in flow style (`\(raw.prefix(1))…`); this edit needs indented block lines, so the file is left as it is. Rewrite it with one key per line, or paste the values by hand")
        }
    }

    /// Sets `names` (a path) to `yaml`.
    mutating func set(_ names: [String], to yaml: String, file: String) throws(ConfigError) {
        var body = 0..<lines.count   // lines of the mapping being searched
        var indent = 0                // its keys' indentation
        var parentLine: Int? = nil    // the line of its key, nil at the root
        for (depth, name) in names.enumerated() {
            let shown = names[...depth].joined(separator: ".")
            guard let index = body.first(where: {
                let line = Self.parse(lines[$0])
                return line.isContent && line.indent == indent && line.key == name
            }) else {
                insert(Array(names[depth...]), yaml: yaml, body: body, indent: indent, parentLine: parentLine)
                return
            }
            let line = Self.parse(lines[index])
            if depth == names.count - 1 {
                replaceValue(at: index, line: line, yaml: yaml)
                return
            }
            if line.value.first == "{", let edited = FlowMapping.setting(Array(names[(depth + 1)...]), to: yaml, in: line.value) {
                // `pitch_rate: {kp: 0.2, ki: 0.2}` on one line: edited in place, in flow style.
                let prefix = String(lines[index][..<line.valueStart!])
                lines[index] = prefix + " " + edited + String(line.comment) + carriageReturn(of: index)
                return
            }
            if line.value.first == "{" || line.value.first == "[" {
                throw ConfigError(file: file, line: index + 1, key: shown, message:
                    "written in flow style (`\(line.value.prefix(1))…`); this edit needs indented block lines, so the file is left as it is. Rewrite this section with one key per line, or paste the values by hand")
            }
            if ["~", "null", "Null", "NULL"].contains(String(line.value)) {
                // `sensor: ~` is an empty section: drop the null so keys can go under it.
                lines[index] = String(lines[index][..<line.valueStart!]).trimmingTrailingSpaces + String(line.comment) + carriageReturn(of: index)
            } else if !line.value.isEmpty {
                throw ConfigError(file: file, line: index + 1, key: shown, message:
                    "holds the value `\(line.value)`, not a section of keys, so the file is left as it is")
            }
            body = (index + 1)..<blockEnd(after: index, indent: line.indent)
            let children = body.map { Self.parse(lines[$0]) }.first(where: \.isContent)
            indent = children?.indent ?? line.indent + step
            parentLine = index
        }
    }

    /// The lines of the block-style keys along `names` that the file has (a section's line,
    /// then its child's, …), stopping where the path leaves the file or enters a flow value.
    func lineIndices(_ names: [String]) -> [Int] {
        var body = 0..<lines.count, indent = 0, found: [Int] = []
        for name in names {
            guard let index = body.first(where: {
                let line = Self.parse(lines[$0])
                return line.isContent && line.indent == indent && line.key == name
            }) else { break }
            found.append(index)
            let line = Self.parse(lines[index])
            guard line.value.isEmpty else { break }
            body = (index + 1)..<blockEnd(after: index, indent: line.indent)
            indent = body.map { Self.parse(lines[$0]) }.first(where: \.isContent)?.indent ?? line.indent + step
        }
        return found
    }

    /// The index after the last content line nested deeper than `indent` following `index`
    /// (comments and blank lines after it belong to whatever comes next).
    func blockEnd(after index: Int, indent: Int, sameIndentSequence: Bool = false) -> Int {
        var end = index + 1
        var cursor = index + 1
        while cursor < lines.count {
            let line = Self.parse(lines[cursor])
            if line.isContent {
                let isItem = sameIndentSequence && line.indent == indent && line.key == nil
                    && lines[cursor].dropFirst(indent).first == "-"
                guard line.indent > indent || isItem else { break }
                end = cursor + 1
            }
            cursor += 1
        }
        return end
    }

    /// Replaces the value of the key line at `index` (and any lines the old value ran onto).
    mutating func replaceValue(at index: Int, line: Line, yaml: String) {
        let end = blockEnd(after: index, indent: line.indent, sameIndentSequence: line.value.isEmpty)
        let prefix = String(lines[index][..<line.valueStart!])
        let newLine = prefix + " " + yaml + String(line.comment) + carriageReturn(of: index)
        lines.replaceSubrange(index..<end, with: [newLine])
    }

    /// Inserts `names` (the missing rest of a path) as nested keys at the end of `body`.
    mutating func insert(_ names: [String], yaml: String, body: Range<Int>, indent: Int, parentLine: Int?) {
        var newLines: [String] = []
        for (offset, name) in names.enumerated() {
            let spaces = String(repeating: " ", count: indent + offset * step)
            newLines.append(spaces + name + ":" + (offset == names.count - 1 ? " " + yaml : "") + carriageReturn)
        }
        if let parentLine {
            let lastContent = body.last { Self.parse(lines[$0]).isContent } ?? parentLine
            lines.insert(contentsOf: newLines, at: lastContent + 1)
        } else {
            // A new top-level section goes at the end, after a blank line.
            if let last = lines.last, !last.allSatisfy({ $0 == " " || $0 == "\r" }) { newLines.insert(carriageReturn, at: 0) }
            lines.append(contentsOf: newLines)
        }
    }

    func carriageReturn(of index: Int) -> String {
        lines[index].hasSuffix("\r") ? "\r" : ""
    }
}

extension StringProtocol {
    var trimmingTrailingSpaces: String {
        var text = String(self)
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
