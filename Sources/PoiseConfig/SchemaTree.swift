/// The flat key list of a schema arranged as a tree of names, the shape of the YAML file.
struct SchemaTree: Sendable {
    /// Set on leaves: the key whose value sits here.
    var key: ConfigKey?
    /// Child names in schema order.
    var names: [String] = []
    var children: [String: SchemaTree] = [:]

    init(keys: [ConfigKey]) {
        for key in keys {
            insert(key, components: key.path.split(separator: ".").map(String.init)[...])
        }
    }

    private init(leaf: ConfigKey?) {
        key = leaf
    }

    private mutating func insert(_ key: ConfigKey, components: ArraySlice<String>) {
        guard let first = components.first else { return }
        if children[first] == nil {
            names.append(first)
            children[first] = SchemaTree(leaf: nil)
        }
        if components.count == 1 {
            children[first]!.key = key
        } else {
            children[first]!.insert(key, components: components.dropFirst())
        }
    }

    /// Dotted paths of every leaf below this node, relative to it, in order.
    var leafPaths: [String] {
        names.flatMap { name -> [String] in
            let child = children[name]!
            return child.key != nil ? [name] : child.leafPaths.map { name + "." + $0 }
        }
    }
}

/// Levenshtein distance, for "did you mean" suggestions among a handful of short names.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
            current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}

/// The candidate closest to `word`, if it is close enough to be a plausible typo.
func closestMatch(to word: String, among candidates: [String]) -> String? {
    if let sameLetters = candidates.first(where: { $0.lowercased() == word.lowercased() }) {
        return sameLetters
    }
    let limit = max(1, word.count / 3)
    let scored = candidates.map { (name: $0, distance: editDistance(word, $0)) }
    guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= limit else { return nil }
    return best.name
}
