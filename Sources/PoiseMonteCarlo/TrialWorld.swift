import PoiseConfig
import PoiseMath

/// One value a trial drew for a configuration key.
public struct DrawnValue: Sendable, Equatable {
    public var path: String
    public var value: ConfigValue
}

/// Trial `trial`'s world: the user's configuration with the spread's keys drawn and
/// `simulation.seed` set to the trial's seed, validated by the configuration's own parser.
///
/// Everything drawn depends only on the base seed and the trial number, so trial K alone
/// (`--trial K`) is the same world as trial K among N, on any number of threads.
public struct TrialWorld: Sendable {
    public var trial: Int
    /// `simulation.seed` of this trial (the chip's noise and the draws).
    public var seed: Int
    public var drawn: [DrawnValue]
    public var configuration: PoiseConfiguration

    /// The seed of trial `trial` from the base seed: SplitMix64-mixed, in `simulation.seed`'s range.
    public static func seed(base: Int, trial: Int) -> Int {
        var random = DeterministicRandom(seed: UInt64(truncatingIfNeeded: base) << 32 ^ UInt64(truncatingIfNeeded: trial))
        return Int(random.next() >> 33)
    }

    public init(trial: Int, baseSeed: Int, spread: Spread, base: PoiseConfiguration) throws(SpreadError) {
        self.trial = trial
        seed = Self.seed(base: baseSeed, trial: trial)
        // Its own stream, apart from the chip's noise, which is seeded with `seed` itself.
        var random = DeterministicRandom(seed: UInt64(seed) ^ 0xD1B5_4A32_D192_ED03)
        drawn = spread.entries.map { entry in
            DrawnValue(path: entry.path, value: Self.draw(entry, base: base, random: &random))
        }
        configuration = try Self.configuration(base: base, drawn: drawn, seed: seed,
                                               name: "trial \(trial) of \(spread.name)")
    }

    /// The base configuration's values become the defaults and the drawn values are a file
    /// over them, so each drawn value passes the same range checks and cross-key rules as a
    /// user's file.
    static func configuration(base: PoiseConfiguration, drawn: [DrawnValue], seed: Int, name: String) throws(SpreadError) -> PoiseConfiguration {
        let keys = ConfigSchema.keys.map { $0.withDefault(base.values[$0.path] ?? $0.defaultValue) }
        var lines: [(path: String, yaml: String)] = []
        for value in drawn + [DrawnValue(path: "simulation.seed", value: .integer(seed))] {
            guard let key = ConfigSchema.key(value.path) else {
                throw SpreadError(file: name, key: value.path, message: "not a configuration key")
            }
            lines.append((value.path, ConfigEditor.yaml(value.value, key: key)))
        }
        do {
            let text = try ConfigEditor.setting(lines, in: "", file: name)
            return PoiseConfiguration(values: try ConfigParser.parse(text: text, file: name, keys: keys))
        } catch {
            throw SpreadError(file: name, message: "the drawn values do not make a valid configuration: \(error)")
        }
    }

    static func draw(_ entry: SpreadEntry, base: PoiseConfiguration, random: inout DeterministicRandom) -> ConfigValue {
        guard let key = ConfigSchema.key(entry.path) else { preconditionFailure("checked by SpreadParser") }
        switch (key.type, entry.form) {
        case (.number(let range), .scalar(let d)):
            return .number(draw(d, base: base.values.number(entry.path), range: range, random: &random))
        case (.integer(let range), .scalar(let d)):
            let r = Double(range.lowerBound)...Double(range.upperBound)
            let x = draw(d, base: Double(base.values.integer(entry.path)), range: r, random: &random).rounded()
            return .integer(Int(min(max(x, r.lowerBound), r.upperBound)))
        case (.vector3, let form):
            let v = base.values.vector3(entry.path)
            switch form {
            case .scalar(let d):
                return .vector3(SIMD3((0..<3).map { draw(d, base: v[$0], range: nil, random: &random) }))
            case .components(let ds):
                return .vector3(SIMD3((0..<3).map { draw(ds[$0], base: v[$0], range: nil, random: &random) }))
            case .magnitude(let d):
                let length = draw(d, base: (v * v).sum().squareRoot(), range: 0...Double.greatestFiniteMagnitude, random: &random)
                return .vector3(direction(&random) * length)
            }
        default:
            preconditionFailure("SpreadParser pairs forms with key types")
        }
    }

    /// One draw; a normal one again until inside `range` (at most 1000 times, then the
    /// nearest bound), so it stays a truncated normal.
    static func draw(_ d: SpreadDistribution, base: Double, range: ClosedRange<Double>?, random: inout DeterministicRandom) -> Double {
        switch d {
        case .fixed(let v): return v
        case .relative(let f): return base * (1 + f * (2 * random.nextUniform() - 1))
        case .uniform(let a, let b): return a + (b - a) * random.nextUniform()
        case .normal(let mean, let sd):
            for _ in 0..<1000 {
                let x = mean + sd * random.nextGaussian()
                if range?.contains(x) ?? true { return x }
            }
            guard let range else { return mean }
            return min(max(mean, range.lowerBound), range.upperBound)
        }
    }

    /// A direction uniform on the sphere: a normalised triple of normal numbers (bit-identical
    /// everywhere: Box–Muller with ``Elementary`` (PoiseMath), and an IEEE square root).
    static func direction(_ random: inout DeterministicRandom) -> SIMD3<Double> {
        while true {
            let v = SIMD3(random.nextGaussian(), random.nextGaussian(), random.nextGaussian())
            let length = (v * v).sum().squareRoot()
            if length > 1e-9 { return v / length }
        }
    }
}
