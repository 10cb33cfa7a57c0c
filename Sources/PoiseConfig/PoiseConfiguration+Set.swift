/// One key set in a loaded configuration, binding → settings, no file in between: the ground
/// station's PARAM_SET.
extension PoiseConfiguration {
    /// This configuration with the key at `path` set to `value`, checked as the loader checks a
    /// file's value — the key's type and range (with its unit in the message), then every
    /// cross-key rule — and applied through that key's binding alone. `source` names the value
    /// in messages (`parameter SAFE_MAX_TILT: safety.max_tilt_deg: `500.0` is out of range
    /// (allowed: 0…180 °)`).
    public func setting(_ path: String, to value: ConfigValue, source: String) throws(ConfigErrors) -> PoiseConfiguration {
        guard let key = ConfigSchema.key(path) else {
            throw ConfigErrors([ConfigError(file: source, key: path, message: "unknown key")])
        }
        if let problem = key.problem(with: value) {
            throw ConfigErrors([ConfigError(file: source, key: path, message: problem, allowed: key.allowed)])
        }
        var changed = self
        changed.values[path] = value
        let broken = ConfigSchema.brokenRules(in: changed.values, file: source)
        guard broken.isEmpty else { throw ConfigErrors(broken) }
        Self.bindings[path]?.apply(&changed, changed.values)
        return changed
    }

    /// Every key's binding lifted onto the whole configuration, by path. Keys of the sections
    /// read from ``values`` when asked (`telemetry`, `input`) have none: setting the value is all.
    static let bindings: [String: ConfigBinding<PoiseConfiguration>] = {
        var all: [ConfigBinding<PoiseConfiguration>] = []
        all += Board.bindings.map { $0.lifted(\.board) }
        all += Sensor.bindings.map { $0.lifted(\.sensor) }
        all += Filter.bindings.map { $0.lifted(\.filter) }
        all += Frame.bindings.map { $0.lifted(\.frame) }
        all += Controller.bindings.map { $0.lifted(\.controller) }
        all += Outputs.bindings.map { $0.lifted(\.outputs) }
        all += Safety.bindings.map { $0.lifted(\.safety) }
        all += Loop.bindings.map { $0.lifted(\.loop) }
        all += Recording.bindings.map { $0.lifted(\.recording) }
        all += Simulation.bindings.map { $0.lifted(\.simulation) }
        return Dictionary(all.map { ($0.key.path, $0) }, uniquingKeysWith: { first, _ in first })
    }()
}

extension ConfigKey {
    /// What is wrong with `value` for this key, in the loader's words, or nil when it is allowed.
    func problem(with value: ConfigValue) -> String? {
        switch (type, value) {
        case (.boolean, .boolean), (.string, .string):
            return nil
        case (.number(let range), .number(let number)):
            guard number.isFinite else { return "expected a finite number, got `\(number)`" }
            return accepts(number, in: range) ? nil : "`\(ConfigFormat.number(number, keepFraction: true))` is out of range"
        case (.integer(let range), .integer(let integer)):
            return range.contains(integer) ? nil : "`\(integer)` is out of range"
        case (.integerChoice(let choices, _), .integer(let integer)):
            return choices.contains(integer) ? nil : "`\(integer)` is not one of the allowed values"
        case (.enumeration(let choices), .string(let word)):
            return choices.contains(word) ? nil : "unknown value `\(word)`"
        default:
            return "expected \(typeDescription)"
        }
    }
}

extension ConfigSchema {
    /// The cross-key rules `values` breaks, each on the first of its keys, in file order (as the
    /// loader reports them for a file that writes every key).
    static func brokenRules(in values: ConfigTable, file: String, rules: [ConfigRule] = ConfigSchema.rules) -> [ConfigError] {
        var broken: [(order: Int, error: ConfigError)] = []
        func order(_ path: String) -> Int { keys.firstIndex { $0.path == path } ?? keys.count }
        for rule in rules {
            if let list = rule.list {
                guard case .list(let elements)? = values[list] else { continue }
                for (index, element) in elements.enumerated() {
                    if let message = rule.check(element, values) {
                        broken.append((order(list), ConfigError(file: file, key: "\(list)[\(index)].\(rule.paths[0])", message: message)))
                    }
                }
            } else if let message = rule.check(values, values) {
                broken.append((order(rule.paths[0]), ConfigError(file: file, key: rule.paths[0], message: message)))
            }
        }
        return broken.enumerated().sorted { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }.map(\.element.error)
    }
}
