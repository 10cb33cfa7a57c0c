extension PoiseConfiguration {
    /// This configuration with the parameters stored on the board set (the state directory's
    /// `parameters.yaml`, read by PoiseFlightSettings' `StoredParameters`; PoiseSettings applies
    /// it through this): each entry a key's dotted path, its value (of the key's type and in
    /// its range, checked on reading) and its 1-based line in `file` (0 for none). Checked as
    /// the loader checks a file: every cross-key rule on the result, a broken rule reported at
    /// the stored line of its key when there is one. Each key is applied through its binding
    /// alone (``setting(_:to:source:)``).
    public func applying(stored entries: [(path: String, value: ConfigValue, line: Int)], file: String) throws(ConfigErrors)
        -> PoiseConfiguration {
        var changed = self
        for entry in entries { changed.values[entry.path] = entry.value }
        let broken = ConfigSchema.brokenRules(in: changed.values, file: file).map { error in
            var error = error
            if let key = error.key, let line = entries.first(where: { $0.path == key })?.line, line > 0 {
                error.line = line
            } else {
                // Reported on a key the file does not write: at the first entry that alone breaks it.
                error.line = entries.first { entry in
                    var one = values
                    one[entry.path] = entry.value
                    return ConfigSchema.brokenRules(in: one, file: file).contains { $0.message == error.message }
                }?.line
            }
            return error
        }
        guard broken.isEmpty else { throw ConfigErrors(broken) }
        for entry in entries { Self.bindings[entry.path]?.apply(&changed, changed.values) }
        return changed
    }
}
