/// The parameters stored on the board (MAV_CMD_PREFLIGHT_STORAGE): the state directory's
/// `parameters.yaml`, which `poise run` and `poise-board run` apply over their configuration at
/// each start and SIGHUP and `poise merge-parameters` writes into the YAML. The one reader and
/// writer of that format, without Foundation (the board's program reads it too; the host's
/// checks its result against the configuration, PoiseSettings' `StoredParameters+Configuration`).
/// One entry per line:
///
///     # comment lines and blank lines are skipped
///     controller.balance.pitch.kp: 31.5  # was 30.0
///
/// The key is a parameter's dotted path (``FlightParameters``), the value written as in the
/// YAML file, `# was V` the file's value when the entry was stored (`poise merge-parameters`
/// refuses an entry whose key the file has changed since).
public struct StoredParameters: Sendable, Equatable {
    /// The file's name in the state directory.
    public static let fileName = "parameters.yaml"

    public struct Entry: Sendable, Equatable {
        /// Index in ``FlightParameters/all``.
        public var index: Int
        /// The file's value (a switch 0 or 1).
        public var value: Double
        /// The configuration's value when stored (`# was …`), nil when not written.
        public var was: Double?
        /// 1-based line in the file (0 for an entry not read from one).
        public var line: Int

        public init(index: Int, value: Double, was: Double? = nil, line: Int = 0) {
            self.index = index
            self.value = value
            self.was = was
            self.line = line
        }

        public var parameter: FlightParameter { FlightParameters.all[index] }

        /// The key's dotted path.
        public var path: String { parameter.path }
    }

    /// In file order, each key once.
    public var entries: [Entry]

    public init(entries: [Entry] = []) { self.entries = entries }

    public var isEmpty: Bool { entries.isEmpty }

    public subscript(index: Int) -> Entry? {
        for entry in entries where entry.index == index { return entry }
        return nil
    }

    /// Sets (or adds, at the end) the entry of its parameter.
    public mutating func set(_ entry: Entry) {
        for position in entries.indices where entries[position].index == entry.index {
            entries[position] = entry
            return
        }
        entries.append(entry)
    }

    /// The entry of the key `path`, nil when the file has none.
    public subscript(path path: String) -> Entry? { FlightParameters.index(ofPath: path).flatMap { self[$0] } }

    public mutating func remove(_ index: Int) { entries.removeAll { $0.index == index } }

    /// One refused line: `FILE:LINE: KEY: MESSAGE (allowed: ALLOWED)` as both programs print it.
    public struct Problem: Sendable, Equatable {
        /// 1-based line in the file.
        public var line: Int
        /// The key as written, nil for a line that is no `key: value`.
        public var key: String?
        public var message: String
        /// The key's range or choices, nil when the message needs none.
        public var allowed: String?

        public init(line: Int, key: String? = nil, message: String, allowed: String? = nil) {
            self.line = line
            self.key = key
            self.message = message
            self.allowed = allowed
        }

        /// The line as the board prints it (the host's `ConfigError` writes the same parts).
        public func description(file: String) -> String {
            var text = file + ":" + String(line) + ": "
            if let key, !key.isEmpty { text += key + ": " }
            text += message
            if let allowed, !allowed.isEmpty { text += " (allowed: " + allowed + ")" }
            return text
        }
    }

    /// Reads a file's text: `poise-board`'s way, every problem a line of the error
    /// (`FILE:LINE: KEY: MESSAGE (allowed: …)`, ``Problem/description(file:)``).
    public init(parsing text: String, file: String, isKey: (String) -> Bool) throws(StoredParametersError) {
        let (read, problems) = Self.reading(text, isKey: isKey)
        guard problems.isEmpty else {
            var lines: [String] = []
            for problem in problems { lines.append(problem.description(file: file)) }
            throw StoredParametersError(lines)
        }
        self = read
    }

    /// Reads a file's text: the entries of its good lines and every problem, each with its line,
    /// in file order; the file is refused when there is any. `isKey` tells a configuration key
    /// that is no parameter ("not a parameter") from an unknown one.
    public static func reading(_ text: String, isKey: (String) -> Bool) -> (parameters: StoredParameters, problems: [Problem]) {
        var entries: [Entry] = []
        var problems: [Problem] = []
        var lineNumber = 0
        func problem(_ key: String?, _ message: String, allowed: String? = nil) {
            problems.append(Problem(line: lineNumber, key: key, message: message, allowed: allowed))
        }
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let (body, comment) = Self.splitComment(line)
            let content = Self.trimmed(body)
            if content.isEmpty { continue }
            guard let colon = content.firstIndex(of: ":") else {
                problem(nil, "expected `key: value` (a key's dotted path, a colon, its value)")
                continue
            }
            let path = String(Self.trimmed(content[..<colon]))
            let valueText = Self.trimmed(content[content.index(after: colon)...])
            guard let index = FlightParameters.index(ofPath: path) else {
                if isKey(path) {
                    problem(path, "not a parameter (only numbers and switches a reload may change are stored on the board)")
                } else {
                    problem(path, "unknown key")
                }
                continue
            }
            if entries.contains(where: { $0.index == index }) {
                problem(path, "written twice")
                continue
            }
            let parameter = FlightParameters.all[index]
            guard let value = parameter.value(parsing: valueText) else {
                problem(path, valueText.isEmpty ? "no value" : "expected " + parameter.typeDescription + ", got `" + String(valueText) + "`",
                        allowed: parameter.allowed)
                continue
            }
            if let message = parameter.problem(with: value, written: valueText) {
                problem(path, message, allowed: parameter.allowed)
                continue
            }
            var was: Double? = nil
            let note = Self.trimmed(comment)
            if note.hasPrefix("was ") { was = parameter.value(parsing: Self.trimmed(note.dropFirst(4))) }
            entries.append(Entry(index: index, value: value, was: was, line: lineNumber))
        }
        return (StoredParameters(entries: entries), problems)
    }

    /// The file's text: a header saying what it is (`program` stored them, running
    /// `configuration`), then one line per entry.
    public func text(program: String, configuration: String?) -> String {
        var text = "# Parameters stored over MAVLink (MAV_CMD_PREFLIGHT_STORAGE) by " + program
            + (configuration.map { " --config " + $0 } ?? "") + ".\n"
        text += "# Applied over the configuration at each start and SIGHUP; `poise merge-parameters` writes\n"
        text += "# them into the YAML. One `key: value` per line; `# was` is the file's value when stored.\n"
        for entry in entries {
            let parameter = entry.parameter
            text += parameter.path + ": " + parameter.text(entry.value)
            if let was = entry.was { text += "  # was " + parameter.text(was) }
            text += "\n"
        }
        return text
    }

    /// "controller.balance.pitch.kp 31.5, safety.max_tilt_deg 40.0": what the file sets.
    public var summary: String {
        var text = ""
        for entry in entries {
            text += (text.isEmpty ? "" : ", ") + entry.parameter.path + " " + entry.parameter.text(entry.value)
        }
        return text
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

/// Why a stored parameters' file was refused: one line per problem, each with its line.
public struct StoredParametersError: Error, Sendable, Equatable {
    public var problems: [String]
    public init(_ problems: [String]) { self.problems = problems }

    public var description: String {
        var text = ""
        for problem in problems { text += (text.isEmpty ? "" : "\n") + problem }
        return text
    }
}

extension FlightParameter {
    /// "a number", "an integer", "a boolean": as the loader names a key's type.
    public var typeDescription: String {
        switch kind {
        case .number: "a number"
        case .integer: "an integer"
        case .boolean: "a boolean"
        }
    }
}

/// The configuration `poise compile` recorded in the compiled file
/// (``FlightSettings/recordedConfiguration``, `# config| ` lines of YAML, two spaces an
/// indentation level): every key's effective value as the YAML writer wrote it.
public enum RecordedConfiguration {
    static let prefix = "# config| "

    /// Each key's scalar text by its dotted path ("safety.max_tilt_deg" → "45.0"), with the
    /// index of its line in `lines`.
    public static func scalars(_ lines: [String]) -> [String: (text: Substring, line: Int)] {
        var scalars: [String: (text: Substring, line: Int)] = [:]
        var stack: [Substring] = []
        for (number, line) in lines.enumerated() where line.hasPrefix(prefix) {
            let yaml = line.dropFirst(prefix.count)
            var indent = 0
            for character in yaml {
                guard character == " " else { break }
                indent += 1
            }
            let body = yaml.dropFirst(indent)
            guard !body.hasPrefix("-"), let colon = body.firstIndex(of: ":") else { continue }
            let depth = indent / 2
            guard depth <= stack.count else { continue }
            stack.removeLast(stack.count - depth)
            let name = body[..<colon]
            let rest = StoredParameters.trimmed(StoredParameters.splitComment(body[body.index(after: colon)...]).0)
            if rest.isEmpty {
                stack.append(name)
                continue
            }
            var path = ""
            for part in stack { path += part + "." }
            scalars[path + name] = (rest, number)
        }
        return scalars
    }

    /// Every parameter's file value (table order) in `lines`; nil where one is missing or not
    /// of its type (a file compiled before parameters were recorded).
    public static func parameterValues(_ lines: [String]) -> [Double]? {
        let scalars = scalars(lines)
        var values: [Double] = []
        for parameter in FlightParameters.all {
            guard let text = scalars[parameter.path]?.text, let value = parameter.value(parsing: text) else { return nil }
            values.append(value)
        }
        return values
    }

    /// `lines` with each parameter that `values` (table order) changes written with its new
    /// value, as the YAML writer writes it: the configuration a recording carries is the one
    /// the loop ran with, stored parameters applied.
    public static func setting(_ values: [Double], in lines: [String]) -> [String] {
        let scalars = scalars(lines)
        var lines = lines
        for (index, parameter) in FlightParameters.all.enumerated() where index < values.count {
            guard let (text, number) = scalars[parameter.path], parameter.value(parsing: text) != values[index] else { continue }
            let line = lines[number]
            guard let colon = line.firstIndex(of: ":") else { continue }
            lines[number] = String(line[...colon]) + " " + parameter.text(values[index])
        }
        return lines
    }
}
