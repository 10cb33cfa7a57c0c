import Yams

extension ConfigParser {
    /// Where a file that passed ``parse(text:file:keys:rules:)`` writes a deprecated key: one
    /// note per use, positioned like an error, saying what to write instead (the key's doc).
    public static func deprecations(text: String, file: String, keys: [ConfigKey] = ConfigSchema.keys) -> [ConfigError] {
        guard let root = try? Yams.compose(yaml: text) else { return [] }
        var notes: [ConfigError] = []
        func walk(_ node: Node, tree: SchemaTree) {
            guard let mapping = node.mapping else { return }
            for (keyNode, valueNode) in mapping {
                guard let name = keyNode.scalar?.string, let child = tree.children[name] else { continue }
                if let key = child.key {
                    if key.deprecated {
                        notes.append(ConfigError(file: file, line: valueNode.mark?.line, column: valueNode.mark?.column,
                                                 key: key.path, message: key.doc))
                    }
                } else {
                    walk(valueNode, tree: child)
                }
            }
        }
        walk(root, tree: SchemaTree(keys: keys))
        return notes
    }
}
