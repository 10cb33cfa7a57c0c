/// The key reference of `docs/config.md`, generated from the schema so the docs cannot drift.
public enum ConfigReference {
    /// One Markdown table row per key, list element keys included.
    public static var markdown: String {
        var lines = [
            "| Key | Type | Default | Allowed | Description |",
            "|---|---|---|---|---|",
        ]
        for key in ConfigSchema.keys where !key.deprecated {
            lines.append(row(key, path: key.path))
            if case .list(let elementKeys) = key.type {
                for element in elementKeys { lines.append(row(element, path: "\(key.path)[].\(element.path)")) }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func row(_ key: ConfigKey, path: String) -> String {
        let value = key.defaultValue.map { "`\(ConfigWriter.scalarText($0, key: key))`" } ?? "required"
        var allowed = key.allowed ?? (key.unit.isEmpty ? "" : key.unit)
        if case .boolean = key.type { allowed = "" }
        let cells = ["`\(path)`", typeName(key.type), value, allowed, key.doc]
        return "| " + cells.map { $0.split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|") }.joined(separator: " | ") + " |"
    }

    private static func typeName(_ type: ConfigType) -> String {
        switch type {
        case .boolean: "boolean"
        case .integer, .integerChoice: "integer"
        case .number: "number"
        case .string: "string"
        case .enumeration: "word"
        case .axisMapping: "axis mapping"
        case .vector3: "vector"
        case .matrix3: "matrix"
        case .list: "list"
        }
    }
}
