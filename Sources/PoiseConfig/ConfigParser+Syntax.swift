import Yams

extension ConfigParser {
    /// Turns a Yams parse failure into a positioned error. libyaml stops at the first syntax
    /// error, so this is the one case where a file yields a single error.
    func syntaxError(_ error: any Error, text: String) -> ConfigError {
        guard let yamlError = error as? YamlError else {
            return ConfigError(file: file, message: "cannot parse YAML: \(error)")
        }
        switch yamlError {
        case let .scanner(context, problem, mark, _),
             let .parser(context, problem, mark, _),
             let .composer(context, problem, mark, _):
            var message = "YAML syntax error: \(Self.plainProblem(problem))"
            if let context, !problem.hasPrefix("Maximum nesting level") {
                message += " (\(context.text) on line \(context.mark.line))"
            }
            if Self.character(at: mark, in: text) == "\t" {
                message += "; indent with spaces, YAML does not allow tabs"
            }
            return ConfigError(file: file, line: mark.line, column: mark.column, message: message)
        case let .reader(problem, offset, _, _):
            let line = offset.map { offset in
                1 + text.utf8.prefix(max(0, offset)).reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            }
            return ConfigError(file: file, line: line, message: "cannot read text: \(problem)")
        case let .duplicatedKeysInMapping(duplicates, context):
            let first = context.mark
            let name = Self.enclosingPath(of: first, in: text) + (duplicates.first ?? "")
            // Yams marks the first occurrence; point at the repeat, which is usually the mistake.
            if let repeatLine = Self.repeatedKeyLine(duplicates.first ?? "", after: first, in: text) {
                return ConfigError(file: file, line: repeatLine, column: first.column, key: name,
                                   message: "duplicate key; already given on line \(first.line)")
            }
            return ConfigError(file: file, line: first.line, column: first.column, key: name,
                               message: "key appears more than once in the same mapping")
        default:
            return ConfigError(file: file, message: "cannot parse YAML: \(yamlError)")
        }
    }

    /// libyaml's wording where it speaks to C programmers rather than to users.
    static func plainProblem(_ problem: String) -> String {
        if problem.hasPrefix("Maximum nesting level") {
            return "nested too deeply (YAML here allows at most 1000 levels of [ ] and { })"
        }
        return problem
    }

    /// The first line after `first` that starts a block key `name` at the same column.
    static func repeatedKeyLine(_ name: String, after first: Mark, in text: String) -> Int? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard first.line < lines.count else { return nil }
        let indent = String(repeating: " ", count: max(0, first.column - 1))
        for index in first.line..<lines.count {
            let line = lines[index]
            if Self.isBlankOrComment(line) { continue }
            guard line.hasPrefix(indent) else { return nil }  // the mapping has ended
            let rest = line.dropFirst(indent.count)
            if rest.hasPrefix(name), rest.dropFirst(name.count).drop(while: { $0 == " " }).first == ":" {
                return index + 1
            }
        }
        return nil
    }

    /// `section.subsection.` for a block-style key at `mark`, found from the indentation of the
    /// lines above; empty when the key is at the root or the layout is not plain block style.
    static func enclosingPath(of mark: Mark, in text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var indent = mark.column - 1
        var names: [Substring] = []
        var index = min(mark.line - 1, lines.count) - 1
        while indent > 0, index >= 0 {
            let line = lines[index]
            index -= 1
            if isBlankOrComment(line) { continue }
            let leading = line.prefix(while: { $0 == " " }).count
            guard leading < indent else { continue }
            let rest = line.dropFirst(leading)
            guard let colon = rest.firstIndex(of: ":"),
                  rest[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
                  rest[rest.index(after: colon)...].allSatisfy({ $0 == " " }) else { return "" }
            names.insert(rest[..<colon], at: 0)
            indent = leading
        }
        return indent == 0 ? names.map { $0 + "." }.joined() : ""
    }

    /// The character a mark points at, if any.
    static func character(at mark: Mark, in text: String) -> Character? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard mark.line >= 1, mark.line <= lines.count else { return nil }
        let scalars = lines[mark.line - 1].unicodeScalars
        guard mark.column >= 1, mark.column <= scalars.count else { return nil }
        return Character(scalars[scalars.index(scalars.startIndex, offsetBy: mark.column - 1)])
    }

    static func isBlankOrComment(_ line: Substring) -> Bool {
        let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
        return trimmed.isEmpty || trimmed.first == "#"
    }
}
