import PoiseConfig
import Yams

/// Reads a spread file: a YAML mapping from dotted configuration keys to distributions,
///
/// ```yaml
/// simulation.initial_tilt_deg: {uniform: [-12, 12]}
/// simulation.gust_torque: {relative: 0.3}          # ± 30 % of the configuration's value
/// controller.balance.kp: {normal: {mean: 30, sd: 3}}
/// some.vector_key: {magnitude: {uniform: [0, 0.1]}} # or {components: [d, d, d]}
/// ```
///
/// checked against the schema and the configuration it will vary: every key must exist and
/// be numeric, and every bound must lie in the key's allowed range, each problem reported
/// at its line and column. A key the configuration lacks is an error, never skipped.
public enum SpreadParser {
    public static func parse(text: String, file: String, configuration: PoiseConfiguration) throws(SpreadErrors) -> Spread {
        var reader = SpreadReader(file: file, base: configuration)
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch {
            throw SpreadErrors([reader.syntaxError(error)])
        }
        var entries: [SpreadEntry] = []
        if let root {
            if let mapping = root.mapping {
                for (keyNode, valueNode) in mapping {
                    if let entry = reader.entry(keyNode, valueNode) { entries.append(entry) }
                }
            } else if !["", "~", "null"].contains(root.scalar?.string ?? "-") {
                reader.fail(root, key: nil, "expected a mapping of configuration keys to distributions")
            }
        }
        guard reader.errors.isEmpty else { throw SpreadErrors(reader.errors) }
        return Spread(name: file, entries: entries)
    }
}

/// The walk over one spread file; collects every problem.
struct SpreadReader {
    let file: String
    let base: PoiseConfiguration
    var errors: [SpreadError] = []

    mutating func fail(_ node: Node?, key: String?, _ message: String, allowed: String? = nil) {
        errors.append(SpreadError(file: file, line: node?.mark?.line, column: node?.mark?.column, key: key,
                                  message: message, allowed: allowed))
    }

    func syntaxError(_ error: any Error) -> SpreadError {
        switch error as? YamlError {
        case let .scanner(_, problem, mark, _)?, let .parser(_, problem, mark, _)?, let .composer(_, problem, mark, _)?:
            return SpreadError(file: file, line: mark.line, column: mark.column, message: "YAML syntax error: \(problem)")
        case let .duplicatedKeysInMapping(duplicates, context)?:
            return SpreadError(file: file, line: context.mark.line, column: context.mark.column, key: duplicates.first,
                               message: "key appears more than once")
        default:
            return SpreadError(file: file, message: "cannot parse YAML: \(error)")
        }
    }

    mutating func entry(_ keyNode: Node, _ valueNode: Node) -> SpreadEntry? {
        guard let path = keyNode.scalar?.string, let mark = keyNode.mark else {
            fail(keyNode, key: nil, "keys must be dotted configuration keys such as simulation.initial_tilt_deg")
            return nil
        }
        guard let key = ConfigSchema.key(path) else {
            let name = path.split(separator: ".").last.map(String.init) ?? path
            let paths = ConfigSchema.keys.map(\.path)
            let near = paths.filter { Self.distance($0, path) <= 2 } + paths.filter { $0.hasSuffix("." + name) }
            fail(keyNode, key: path, near.isEmpty ? "not a configuration key (docs/config.md lists them)"
                                                   : "not a configuration key; did you mean `\(near[0])`?")
            return nil
        }
        if path == "simulation.seed" {
            fail(keyNode, key: path, "each trial's seed is derived from --seed and the trial number; leave it out of the spread")
            return nil
        }
        let form: SpreadForm?
        switch key.type {
        case .number(let range):
            form = scalar(valueNode, path: path, key: key, range: range, bases: [base.values.number(path)])
        case .integer(let range):
            form = scalar(valueNode, path: path, key: key, range: Double(range.lowerBound)...Double(range.upperBound),
                          bases: [Double(base.values.integer(path))])
        case .vector3:
            form = vector(valueNode, path: path, key: key, base: base.values.vector3(path))
        default:
            fail(keyNode, key: path, "takes \(key.typeDescription), not a number: only number, integer and vector keys are drawn")
            return nil
        }
        return form.map { SpreadEntry(path: path, form: $0, line: mark.line, column: mark.column) }
    }

    /// Edit distance, for "did you mean" (a few hundred short keys: cheap).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        guard abs(a.count - b.count) <= 2 else { return 3 }
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }

    mutating func scalar(_ node: Node, path: String, key: ConfigKey, range: ClosedRange<Double>, bases: [Double]) -> SpreadForm? {
        guard let d = distribution(node, path: path, key: key, range: range, bases: bases) else { return nil }
        return .scalar(d)
    }

    mutating func vector(_ node: Node, path: String, key: ConfigKey, base: SIMD3<Double>) -> SpreadForm? {
        let bases = [base.x, base.y, base.z]
        if let mapping = node.mapping, mapping.count == 1, let (name, value) = mapping.first.map({ ($0.key.scalar?.string, $0.value) }) {
            if name == "components" {
                guard let items = value.sequence, items.count == 3 else {
                    fail(value, key: path, "components: expected a list of 3 distributions (x, y, z)")
                    return nil
                }
                let parts = items.enumerated().map { distribution($1, path: path, key: key, range: nil, bases: [bases[$0]]) }
                guard parts.allSatisfy({ $0 != nil }) else { return nil }
                return .components(parts.map { $0! })
            }
            if name == "magnitude" {
                guard let d = distribution(value, path: path, key: key, range: 0...Double.greatestFiniteMagnitude,
                                           bases: [(base * base).sum().squareRoot()], what: "a length") else { return nil }
                return .magnitude(d)
            }
        }
        return distribution(node, path: path, key: key, range: nil, bases: bases).map(SpreadForm.scalar)
    }

    /// A number (fixed) or `{relative: f}`, `{uniform: [a, b]}`, `{normal: {mean: m, sd: s}}`,
    /// whose draws must stay in `range` for every one of `bases` (the configuration's values).
    mutating func distribution(_ node: Node, path: String, key: ConfigKey, range: ClosedRange<Double>?, bases: [Double],
                               what: String = "") -> SpreadDistribution? {
        let forms = "a number, {relative: f}, {uniform: [a, b]} or {normal: {mean: m, sd: s}}"
            + (key.typeDescription == "a list of 3 numbers" && what.isEmpty ? "; for a vector also {components: [x, y, z]} or {magnitude: d}" : "")
        let result: SpreadDistribution
        if node.scalar != nil {
            guard let v = number(node, path: path) else { return nil }
            result = .fixed(v)
        } else if let mapping = node.mapping, mapping.count == 1, let pair = mapping.first, let name = pair.key.scalar?.string {
            let value = pair.value
            switch name {
            case "relative":
                guard let f = number(value, path: path) else { return nil }
                guard f >= 0 else { fail(value, key: path, "relative: a fraction ≥ 0 (0.3 is ± 30 %)"); return nil }
                if bases.contains(0), f > 0 {
                    fail(value, key: path, "relative to the configuration's value 0 always draws 0; use {uniform: [a, b]}")
                    return nil
                }
                result = .relative(f)
            case "uniform":
                guard let items = value.sequence, items.count == 2 else {
                    fail(value, key: path, "uniform: expected [low, high]")
                    return nil
                }
                guard let a = number(items[0], path: path), let b = number(items[1], path: path) else { return nil }
                guard a <= b else { fail(value, key: path, "uniform: the low bound \(a) is above the high bound \(b)"); return nil }
                result = .uniform(a, b)
            case "normal":
                let field = { (name: String) in value.mapping?.first { $0.key.scalar?.string == name }?.value }
                guard let fields = value.mapping, fields.count == 2, let meanNode = field("mean"), let sdNode = field("sd") else {
                    fail(value, key: path, "normal: expected {mean: m, sd: s}")
                    return nil
                }
                guard let mean = number(meanNode, path: path), let sd = number(sdNode, path: path) else { return nil }
                guard sd >= 0 else { fail(sdNode, key: path, "normal: sd must be ≥ 0"); return nil }
                result = .normal(mean: mean, sd: sd)
            default:
                fail(pair.key, key: path, "unknown distribution `\(name)`", allowed: forms)
                return nil
            }
        } else {
            fail(node, key: path, "expected a distribution", allowed: forms)
            return nil
        }
        guard let range else { return result }
        for b in bases {
            let (low, high) = Self.bounds(result, base: b)
            if !(range.contains(low) && range.contains(high)) {
                let what = what.isEmpty ? "" : " (\(what))"
                let drawn = low == high ? "\(low)" : "\(low)…\(high)"
                fail(node, key: path, "draws \(drawn)\(what), outside the key's range", allowed: what.isEmpty ? key.allowed : "≥ 0")
                return nil
            }
        }
        return result
    }

    /// The smallest and largest value a distribution draws around `base` (a normal one: its
    /// mean, the rest is cut to the range).
    static func bounds(_ d: SpreadDistribution, base: Double) -> (Double, Double) {
        switch d {
        case .fixed(let v): return (v, v)
        case .relative(let f): return (min(base * (1 - f), base * (1 + f)), max(base * (1 - f), base * (1 + f)))
        case .uniform(let a, let b): return (a, b)
        case .normal(let mean, _): return (mean, mean)
        }
    }

    mutating func number(_ node: Node, path: String) -> Double? {
        guard let text = node.scalar?.string, let v = Double(text), v.isFinite else {
            fail(node, key: path, "expected a number, got \(node.scalar.map { "`\($0.string)`" } ?? "a \(node.mapping != nil ? "mapping" : "list")")")
            return nil
        }
        return v
    }
}
