import Yams

/// Checks YAML text against a schema and returns every value, defaults filled in.
///
/// Yams parses the text into `Node`s that carry their line and column (`Mark`), so every
/// problem below is reported at the node that caused it. The walk never stops early: it
/// collects all problems and throws them together.
public struct ConfigParser {
    let file: String
    var errors: [ConfigError] = []
    /// Where each value the file sets was written, by display path (`outputs.pwm[0].chip`).
    var marks: [String: Mark] = [:]

    private init(file: String) {
        self.file = file
    }

    /// Parses `text` (named `file` in messages) against `keys`.
    public static func parse(text: String, file: String, keys: [ConfigKey] = ConfigSchema.keys,
                             rules: [ConfigRule] = ConfigSchema.rules)
        throws(ConfigErrors) -> ConfigTable
    {
        var parser = ConfigParser(file: file)
        let tree = SchemaTree(keys: keys)
        var table = ConfigTable()
        for key in keys { if let value = key.defaultValue { table[key.path] = value } }

        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw ConfigErrors([parser.syntaxError(error, text: text)])
        }
        if let root, !parser.isNull(root) {
            if root.mapping != nil {
                parser.walk(root, tree: tree, relative: "", display: "", into: &table)
            } else {
                parser.report(root, key: nil, "expected a mapping of sections, got \(parser.kind(of: root))",
                              allowed: tree.names.joined(separator: ", "))
            }
        }
        if parser.errors.isEmpty {
            parser.apply(rules, to: table)
        }
        if !parser.errors.isEmpty {
            let sorted = parser.errors.enumerated().sorted {
                ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset)
            }.map(\.element)
            throw ConfigErrors(sorted)
        }
        return table
    }

    /// The line each key the text sets is written on, by display path (`loop.rate_hz`,
    /// `outputs.channels[0].line`); empty for text that is not YAML. For messages about a
    /// file that has already passed ``parse(text:file:keys:rules:)``.
    public static func writtenLines(text: String, file: String, keys: [ConfigKey] = ConfigSchema.keys) -> [String: Int] {
        var parser = ConfigParser(file: file)
        guard let root = try? Yams.compose(yaml: text), root.mapping != nil else { return [:] }
        var table = ConfigTable()
        parser.walk(root, tree: SchemaTree(keys: keys), relative: "", display: "", into: &table)
        return parser.marks.mapValues(\.line)
    }

    /// The line and column of each key's value the text sets, by display path, like
    /// ``writtenLines(text:file:keys:)``.
    public static func writtenPositions(text: String, file: String, keys: [ConfigKey] = ConfigSchema.keys) -> [String: (line: Int, column: Int)] {
        var parser = ConfigParser(file: file)
        guard let root = try? Yams.compose(yaml: text), root.mapping != nil else { return [:] }
        var table = ConfigTable()
        parser.walk(root, tree: SchemaTree(keys: keys), relative: "", display: "", into: &table)
        return parser.marks.mapValues { ($0.line, $0.column) }
    }

    // MARK: Walking mappings

    /// Checks the keys of mapping `node` against `tree`, storing leaf values under
    /// `relative` + name and naming them `display` + name in messages.
    mutating func walk(_ node: Node, tree: SchemaTree, relative: String, display: String, into table: inout ConfigTable) {
        guard let mapping = node.mapping else { return }
        for (keyNode, valueNode) in mapping {
            guard let name = keyNode.scalar?.string else {
                report(keyNode, key: display.isEmpty ? nil : String(display.dropLast()),
                       "keys must be plain names, got \(kind(of: keyNode))")
                continue
            }
            guard let child = tree.children[name] else {
                unknownKey(keyNode, name: name, tree: tree, display: display)
                continue
            }
            let path = relative + name, shown = display + name
            if let key = child.key {
                marks[shown] = valueNode.mark
                if let value = convert(valueNode, key: key, shown: shown) { table[path] = value }
            } else if valueNode.mapping != nil {
                walk(valueNode, tree: child, relative: path + ".", display: shown + ".", into: &table)
            } else if !isNull(valueNode) {
                report(valueNode, key: shown, "expected a mapping of keys, got \(kind(of: valueNode))",
                       allowed: child.names.joined(separator: ", "))
            }
        }
    }

    mutating func unknownKey(_ node: Node, name: String, tree: SchemaTree, display: String) {
        let shown = display + name
        if name == "<<" {
            report(node, key: shown, "YAML merge keys are not supported; write the keys out")
        } else if let suggestion = closestMatch(to: name, among: tree.names) {
            report(node, key: shown, "unknown key; did you mean `\(suggestion)`?")
        } else if let nested = tree.leafPaths.first(where: { $0.hasSuffix("." + name) }) {
            report(node, key: shown, "unknown key here; did you mean `\(nested)`?")
        } else {
            report(node, key: shown, "unknown key", allowed: tree.names.joined(separator: ", "))
        }
    }

    /// Reports broken cross-key rules; only meaningful once every value is valid.
    mutating func apply(_ rules: [ConfigRule], to table: ConfigTable) {
        for rule in rules {
            if let list = rule.list {
                guard case .list(let elements)? = table[list] else { continue }
                for (index, element) in elements.enumerated() {
                    if let message = rule.check(element, table) {
                        reportRule(message, paths: rule.paths.map { "\(list)[\(index)].\($0)" })
                    }
                }
            } else if let message = rule.check(table, table) {
                reportRule(message, paths: rule.paths)
            }
        }
    }

    private mutating func reportRule(_ message: String, paths: [String]) {
        let written = paths.first { marks[$0] != nil } ?? paths[0]
        let mark = marks[written]
        errors.append(ConfigError(file: file, line: mark?.line, column: mark?.column, key: written, message: message))
    }

    // MARK: Values

    /// The value of a leaf, or `nil` after reporting why it is not acceptable.
    mutating func convert(_ node: Node, key: ConfigKey, shown: String) -> ConfigValue? {
        switch key.type {
        case .boolean:
            guard let text = plainScalar(node, key: key, shown: shown) else { return nil }
            switch text {
            case "true", "True", "TRUE": return .boolean(true)
            case "false", "False", "FALSE": return .boolean(false)
            default:
                report(node, key: shown, "expected a boolean, got `\(text)`", allowed: key.allowed)
                return nil
            }
        case .integer(let range):
            guard let text = plainScalar(node, key: key, shown: shown) else { return nil }
            guard let value = Self.integer(text) else {
                report(node, key: shown, "expected an integer, got `\(text)`", allowed: key.allowed)
                return nil
            }
            guard range.contains(value) else {
                report(node, key: shown, "`\(text)` is out of range", allowed: key.allowed)
                return nil
            }
            return .integer(value)
        case .integerChoice(let choices, _):
            guard let text = plainScalar(node, key: key, shown: shown) else { return nil }
            guard let value = Self.integer(text) else {
                report(node, key: shown, "expected an integer, got `\(text)`", allowed: key.allowed)
                return nil
            }
            guard choices.contains(value) else {
                report(node, key: shown, "`\(text)` is not one of the allowed values", allowed: key.allowed)
                return nil
            }
            return .integer(value)
        case .number(let range):
            guard let value = number(node, key: key, shown: shown) else { return nil }
            guard key.accepts(value, in: range) else {
                report(node, key: shown, "`\(node.scalar?.string ?? "")` is out of range", allowed: key.allowed)
                return nil
            }
            return .number(value)
        case .string:
            return anyScalar(node, key: key, shown: shown).map(ConfigValue.string)
        case .enumeration(let choices):
            guard let text = anyScalar(node, key: key, shown: shown) else { return nil }
            guard choices.contains(text) else {
                if let suggestion = closestMatch(to: text, among: choices) {
                    report(node, key: shown, "unknown value `\(text)`; did you mean `\(suggestion)`?", allowed: key.allowed)
                } else {
                    report(node, key: shown, "unknown value `\(text)`", allowed: key.allowed)
                }
                return nil
            }
            return .string(text)
        case .axisMapping:
            guard let text = anyScalar(node, key: key, shown: shown) else { return nil }
            switch AxisMapping.parse(text) {
            case .success(let mapping): return .string(mapping.description)
            case .failure(let error):
                report(node, key: shown, "\(error)", allowed: key.allowed)
                return nil
            }
        case .vector3:
            return vector3(node, key: key, shown: shown).map(ConfigValue.vector3)
        case .matrix3:
            guard let rows = sequence(node, count: 3, key: key, shown: shown, what: "rows") else { return nil }
            var matrix: [SIMD3<Double>] = []
            for (i, row) in rows.enumerated() {
                if let vector = vector3(row, key: key, shown: "\(shown)[\(i)]") { matrix.append(vector) }
            }
            guard matrix.count == 3 else { return nil }
            return .matrix3(ConfigMatrix3(matrix[0], matrix[1], matrix[2]))
        case .list(let elementKeys):
            return list(node, elementKeys: elementKeys, key: key, shown: shown)
        }
    }

    mutating func list(_ node: Node, elementKeys: [ConfigKey], key: ConfigKey, shown: String) -> ConfigValue? {
        if isNull(node) { return .list([]) }
        guard let elements = node.sequence else {
            report(node, key: shown, "expected \(key.typeDescription), got \(kind(of: node))")
            return nil
        }
        let tree = SchemaTree(keys: elementKeys)
        var tables: [ConfigTable] = []
        var failed = false
        for (index, element) in elements.enumerated() {
            let elementShown = "\(shown)[\(index)]"
            guard element.mapping != nil else {
                report(element, key: elementShown, "expected a mapping of keys, got \(kind(of: element))",
                       allowed: tree.names.joined(separator: ", "))
                failed = true
                continue
            }
            let before = errors.count
            var table = ConfigTable()
            walk(element, tree: tree, relative: "", display: elementShown + ".", into: &table)
            for elementKey in elementKeys where table[elementKey.path] == nil {
                if let value = elementKey.defaultValue {
                    table[elementKey.path] = value
                } else if !errors[before...].contains(where: { $0.key == "\(elementShown).\(elementKey.path)" }) {
                    report(element, key: "\(elementShown).\(elementKey.path)", "missing required key",
                           allowed: elementKey.allowed)
                }
            }
            if errors.count > before { failed = true }
            tables.append(table)
        }
        return failed ? nil : .list(tables)
    }

    mutating func vector3(_ node: Node, key: ConfigKey, shown: String) -> SIMD3<Double>? {
        guard let items = sequence(node, count: 3, key: key, shown: shown, what: "numbers") else { return nil }
        var values: [Double] = []
        for (i, item) in items.enumerated() {
            if let value = number(item, key: key, shown: "\(shown)[\(i)]") { values.append(value) }
        }
        return values.count == 3 ? SIMD3(values[0], values[1], values[2]) : nil
    }

    mutating func sequence(_ node: Node, count: Int, key: ConfigKey, shown: String, what: String) -> [Node]? {
        guard let sequence = node.sequence else {
            report(node, key: shown, "expected \(key.typeDescription), got \(kind(of: node))")
            return nil
        }
        let items = Array(sequence)
        guard items.count == count else {
            report(node, key: shown, "expected \(count) \(what), got \(items.count)")
            return nil
        }
        return items
    }

    mutating func number(_ node: Node, key: ConfigKey, shown: String) -> Double? {
        guard let text = plainScalar(node, key: key, shown: shown) else { return nil }
        guard let value = Double(text) ?? Self.integer(text).map(Double.init) else {
            report(node, key: shown, "expected a number, got `\(text)`", allowed: key.allowed)
            return nil
        }
        guard value.isFinite else {
            report(node, key: shown, "expected a finite number, got `\(text)`", allowed: key.allowed)
            return nil
        }
        return value
    }

    /// Decimal or `0x` hexadecimal, with an optional sign.
    static func integer(_ text: String) -> Int? {
        var body = Substring(text)
        var negative = false
        if let sign = body.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            body = body.dropFirst()
        }
        var radix = 10
        if body.hasPrefix("0x") || body.hasPrefix("0X") {
            radix = 16
            body = body.dropFirst(2)
        }
        // `Int(_:radix:)` takes a sign of its own; one sign, before any `0x`, is enough.
        guard let first = body.first, first.isHexDigit, let magnitude = Int(body, radix: radix) else { return nil }
        return negative ? -magnitude : magnitude
    }

    /// The text of an unquoted scalar (numbers and booleans must not be quoted).
    mutating func plainScalar(_ node: Node, key: ConfigKey, shown: String) -> String? {
        guard let scalar = scalarText(node, key: key, shown: shown) else { return nil }
        guard node.scalar?.style == .plain else {
            report(node, key: shown, "expected \(key.typeDescription), got the quoted string `\(scalar)`",
                   allowed: key.allowed)
            return nil
        }
        return scalar
    }

    /// The text of any scalar, quoted or not.
    mutating func anyScalar(_ node: Node, key: ConfigKey, shown: String) -> String? {
        scalarText(node, key: key, shown: shown)
    }

    private mutating func scalarText(_ node: Node, key: ConfigKey, shown: String) -> String? {
        guard let scalar = node.scalar else {
            report(node, key: shown, "expected \(key.typeDescription), got \(kind(of: node))", allowed: key.allowed)
            return nil
        }
        if isNull(node) {
            report(node, key: shown, "has no value; give one or delete the key", allowed: key.allowed)
            return nil
        }
        return scalar.string
    }

    // MARK: Helpers

    func isNull(_ node: Node) -> Bool {
        guard let scalar = node.scalar, scalar.style == .plain else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    func kind(of node: Node) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        case .scalar(let scalar):
            if isNull(node) { return "nothing" }
            return scalar.style == .plain ? "`\(scalar.string)`" : "the string `\(scalar.string)`"
        }
    }

    mutating func report(_ node: Node, key: String?, _ message: String, allowed: String? = nil) {
        errors.append(ConfigError(file: file, line: node.mark?.line, column: node.mark?.column,
                                  key: key, message: message, allowed: allowed))
    }
}
