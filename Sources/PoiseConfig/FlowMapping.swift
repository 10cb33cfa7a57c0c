/// A one-line YAML flow mapping (`{kp: 0.2, ki: 0.2, kd: 0.004}`) edited as text: one entry's
/// value replaced, or an entry added at its end, every other entry kept as written. Used by
/// ``ConfigEditor`` for sections written in flow style; the edited file is reloaded and
/// compared there, so an entry this cannot read is refused rather than guessed.
enum FlowMapping {
    /// `text` (a whole `{…}` mapping) with the path `names` set to `yaml`, nested mappings
    /// followed or created in flow style; nil when `text` is not a single-line flow mapping
    /// this can take apart (an unbalanced bracket, a quote, a key holding a plain value
    /// where the path goes deeper).
    static func setting(_ names: [String], to yaml: String, in text: Substring) -> String? {
        guard let first = names.first, text.first == "{", text.last == "}",
              var entries = entries(text.dropFirst().dropLast()) else { return nil }
        let inner = text.dropFirst().dropLast()
        let padded = inner.first == " " && inner.last == " "
        if let index = entries.firstIndex(where: { key(of: $0) == first }) {
            let entry = entries[index]
            guard let colon = colonIndex(entry) else { return nil }
            let value = entry[entry.index(after: colon)...].drop { $0 == " " }
            if names.count == 1 {
                entries[index] = Substring(entry[...colon] + " " + yaml)
            } else {
                guard let nested = setting(Array(names.dropFirst()), to: yaml, in: Substring(value)) else { return nil }
                entries[index] = Substring(entry[...colon] + " " + nested)
            }
        } else {
            entries.append(Substring(nestedEntry(names, yaml)))
        }
        if entries.count == 1 && entries[0].isEmpty { return nil }
        let body = entries.filter { !$0.isEmpty }.joined(separator: ", ")
        return padded ? "{ \(body) }" : "{\(body)}"
    }

    /// `a: {b: yaml}` for the path `names`.
    static func nestedEntry(_ names: [String], _ yaml: String) -> String {
        names.count == 1 ? "\(names[0]): \(yaml)" : "\(names[0]): {\(nestedEntry(Array(names.dropFirst()), yaml))}"
    }

    /// The entries between the braces, split at top-level commas and trimmed; nil when the
    /// brackets do not balance or a quote or comment makes the split unsafe.
    static func entries(_ inner: Substring) -> [Substring]? {
        var result: [Substring] = []
        var depth = 0
        var start = inner.startIndex
        for index in inner.indices {
            switch inner[index] {
            case "{", "[": depth += 1
            case "}", "]":
                depth -= 1
                if depth < 0 { return nil }
            case "\"", "'", "#", "\n": return nil
            case "," where depth == 0:
                result.append(trimmed(inner[start..<index]))
                start = inner.index(after: index)
            default: break
            }
        }
        guard depth == 0 else { return nil }
        let last = trimmed(inner[start...])
        if !last.isEmpty || !result.isEmpty { result.append(last) }
        return result.isEmpty ? [""] : result
    }

    static func trimmed(_ s: Substring) -> Substring {
        var t = s.drop { $0 == " " || $0 == "\t" }
        while let last = t.last, last == " " || last == "\t" { t = t.dropLast() }
        return t
    }

    static func colonIndex(_ entry: Substring) -> Substring.Index? {
        entry.indices.first { entry[$0] == ":" && (entry.index(after: $0) == entry.endIndex || entry[entry.index(after: $0)] == " ") }
    }

    static func key(of entry: Substring) -> String? {
        colonIndex(entry).map { String(entry[..<$0]).trimmingTrailingSpaces }
    }
}
