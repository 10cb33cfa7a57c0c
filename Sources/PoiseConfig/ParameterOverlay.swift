/// Parameters stored on the board (the ground station's MAV_CMD_PREFLIGHT_STORAGE): a small
/// file in the service's state directory that `poise run` applies over the configuration at
/// each start and SIGHUP, and that `poise merge-parameters` writes back into the YAML.
///
/// The format, one entry per line, so that a reader without Foundation (the board's program)
/// parses it with a split at the first `:`:
///
///     # comment lines and blank lines are skipped
///     controller.balance.pitch.kp: 31.5  # was 30
///
/// The key is the configuration key's dotted path; only parameters (the numbers, whole numbers
/// and switches a reload may change) are allowed. The value is written as in the YAML file
/// (`true`/`false` for a switch). `# was V` after the value is the file's value when the entry
/// was stored: the merge refuses an entry whose key the file has changed since.
public struct ParameterOverlay: Equatable, Sendable {
    /// The file's name in the state directory.
    public static let fileName = "parameters.yaml"

    public struct Entry: Equatable, Sendable {
        /// The configuration key's dotted path.
        public var path: String
        public var value: ConfigValue
        /// The file's value when stored (`# was …`), nil when not written.
        public var was: ConfigValue?
        /// 1-based line in the overlay (0 for an entry not read from a file).
        public var line: Int

        public init(path: String, value: ConfigValue, was: ConfigValue? = nil, line: Int = 0) {
            self.path = path
            self.value = value
            self.was = was
            self.line = line
        }
    }

    /// In file order, each key once.
    public var entries: [Entry]

    public init(entries: [Entry] = []) { self.entries = entries }

    public var isEmpty: Bool { entries.isEmpty }

    public subscript(path: String) -> Entry? { entries.first { $0.path == path } }

    /// Sets (or adds, at the end) the entry of `path`.
    public mutating func set(_ entry: Entry) {
        if let index = entries.firstIndex(where: { $0.path == entry.path }) { entries[index] = entry } else { entries.append(entry) }
    }

    public mutating func remove(_ path: String) { entries.removeAll { $0.path == path } }

    /// Whether `key` may be in an overlay: a live number, whole number or switch (a parameter).
    public static func allows(_ key: ConfigKey) -> Bool {
        guard key.reload == .live else { return false }
        switch key.type {
        case .number, .integer, .boolean: return true
        default: return false
        }
    }

    /// Reads an overlay; every problem is reported with its line (`file` names it).
    public init(parsing text: String, file: String) throws(ConfigErrors) {
        var entries: [Entry] = []
        var errors: [ConfigError] = []
        var lineNumber = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let (body, comment) = Self.splitComment(line)
            let content = Self.trimmed(body)
            if content.isEmpty { continue }
            guard let colon = content.firstIndex(of: ":") else {
                errors.append(ConfigError(file: file, line: lineNumber, message: "expected `key: value` (a key's dotted path, a colon, its value)"))
                continue
            }
            let path = String(Self.trimmed(content[..<colon]))
            let valueText = Self.trimmed(content[content.index(after: colon)...])
            guard let key = ConfigSchema.key(path) else {
                errors.append(ConfigError(file: file, line: lineNumber, key: path, message: "unknown key"))
                continue
            }
            guard Self.allows(key) else {
                errors.append(ConfigError(file: file, line: lineNumber, key: path,
                                          message: "not a parameter (only numbers and switches a reload may change are stored on the board)"))
                continue
            }
            if entries.contains(where: { $0.path == path }) {
                errors.append(ConfigError(file: file, line: lineNumber, key: path, message: "written twice"))
                continue
            }
            guard let value = Self.value(valueText, for: key) else {
                errors.append(ConfigError(file: file, line: lineNumber, key: path,
                                          message: valueText.isEmpty ? "no value" : "expected \(key.typeDescription), got `\(valueText)`",
                                          allowed: key.allowed))
                continue
            }
            if let problem = key.problem(with: value) {
                errors.append(ConfigError(file: file, line: lineNumber, key: path, message: problem, allowed: key.allowed))
                continue
            }
            var was: ConfigValue? = nil
            let note = Self.trimmed(comment)
            if note.hasPrefix("was ") { was = Self.value(Self.trimmed(note.dropFirst(4)), for: key) }
            entries.append(Entry(path: path, value: value, was: was, line: lineNumber))
        }
        guard errors.isEmpty else { throw ConfigErrors(errors) }
        self.entries = entries
    }

    /// The overlay's text: a header saying what it is, then one line per entry.
    public func text(configuration: String?) -> String {
        var text = "# Parameters stored over MAVLink (MAV_CMD_PREFLIGHT_STORAGE) by poise run\(configuration.map { " --config \($0)" } ?? "").\n"
        text += "# Applied over the configuration at each start and SIGHUP; `poise merge-parameters` writes\n"
        text += "# them into the YAML. One `key: value` per line; `# was` is the file's value when stored.\n"
        for entry in entries {
            guard let key = ConfigSchema.key(entry.path) else { continue }
            text += "\(entry.path): \(ConfigWriter.scalarText(entry.value, key: key))"
            if let was = entry.was { text += "  # was \(ConfigWriter.scalarText(was, key: key))" }
            text += "\n"
        }
        return text
    }

    /// A value's text as the key's value, nil when it is not one (numbers as the YAML parser
    /// takes them; a whole number is also a number).
    static func value(_ text: Substring, for key: ConfigKey) -> ConfigValue? {
        switch key.type {
        case .boolean:
            switch text {
            case "true": return .boolean(true)
            case "false": return .boolean(false)
            default: return nil
            }
        case .integer, .integerChoice:
            if text.hasPrefix("0x") || text.hasPrefix("0X") { return Int(text.dropFirst(2), radix: 16).map(ConfigValue.integer) }
            return Int(text).map(ConfigValue.integer)
        case .number:
            guard let number = Double(text), number.isFinite else { return nil }
            return .number(number)
        default:
            return nil
        }
    }

    /// The line before a `#` that starts a comment (at the start or after a space), and the comment.
    static func splitComment(_ line: Substring) -> (Substring, Substring) {
        var previous: Character = " "
        for index in line.indices {
            if line[index] == "#", previous == " " || previous == "\t" { return (line[..<index], line[line.index(after: index)...]) }
            previous = line[index]
        }
        return (line, "")
    }

    static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}

extension PoiseConfiguration {
    /// This configuration with `overlay`'s values set, checked as the loader checks a file:
    /// each value's type and range (already at parsing), then every cross-key rule on the
    /// result, a broken rule reported at the overlay's line of its key when it has one. Each
    /// key is applied through its binding alone (``setting(_:to:source:)``).
    public func applying(_ overlay: ParameterOverlay, file: String) throws(ConfigErrors) -> PoiseConfiguration {
        var changed = self
        for entry in overlay.entries { changed.values[entry.path] = entry.value }
        let broken = ConfigSchema.brokenRules(in: changed.values, file: file).map { error in
            var error = error
            if let key = error.key, let line = overlay[key]?.line, line > 0 {
                error.line = line
            } else {
                // Reported on a key the overlay does not write: at the first entry that alone breaks it.
                error.line = overlay.entries.first { entry in
                    var one = values
                    one[entry.path] = entry.value
                    return ConfigSchema.brokenRules(in: one, file: file).contains { $0.message == error.message }
                }?.line
            }
            return error
        }
        guard broken.isEmpty else { throw ConfigErrors(broken) }
        for entry in overlay.entries { Self.bindings[entry.path]?.apply(&changed, changed.values) }
        return changed
    }
}
