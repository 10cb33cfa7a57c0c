import Testing
import PropertyBased
import PoiseConfig

/// Small deterministic generator so one seed from PropertyBased drives a whole random file.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: Int) { state = UInt64(bitPattern: Int64(seed)) }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A random value the schema accepts for `key`.
func randomValue(for key: ConfigKey, using rng: inout SplitMix64) -> ConfigValue {
    func number(in range: ClosedRange<Double>) -> Double {
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return range.lowerBound
        case 1: return range.upperBound
        // Rounded to a tenth, kept inside the range (0.04 in 0.01…60 must not become 0).
        case 2: return min(max((Double.random(in: range, using: &rng) * 10).rounded() / 10, range.lowerBound),
                           range.upperBound)
        default: return Double.random(in: range, using: &rng)
        }
    }
    func vector() -> SIMD3<Double> {
        SIMD3(number(in: -1000...1000), number(in: -1e-3...1e-3), number(in: -1...1))
    }
    switch key.type {
    case .boolean: return .boolean(Bool.random(using: &rng))
    case .integer(let range): return .integer(Int.random(in: range, using: &rng))
    case .integerChoice(let choices, _): return .integer(choices.randomElement(using: &rng)!)
    case .number(let range): return .number(number(in: range))
    case .string:
        let alphabet = Array(" !\"#$%&'()*+,-./0123456789:;<=>?@ABCZ[\\]^_`abcxyz{|}~µ°é\t")
        let count = Int.random(in: 0...16, using: &rng)
        return .string(String((0..<count).map { _ in alphabet.randomElement(using: &rng)! }))
    case .enumeration(let choices): return .string(choices.randomElement(using: &rng)!)
    case .axisMapping: return .string(AxisMapping.allNames.randomElement(using: &rng)!)
    case .vector3: return .vector3(vector())
    case .matrix3: return .matrix3(ConfigMatrix3(vector(), vector(), vector()))
    case .list(let elementKeys):
        let count = Int.random(in: 0...3, using: &rng)
        return .list((0..<count).map { _ in randomTable(elementKeys, using: &rng) })
    }
}

func randomTable(_ keys: [ConfigKey], using rng: inout SplitMix64) -> ConfigTable {
    var table = ConfigTable()
    for key in keys { table[key.path] = randomValue(for: key, using: &rng) }
    return table
}

@Test func randomValidValuesRoundTripThroughYAML() async {
    await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max)) { seed in
        var rng = SplitMix64(seed: seed)
        let table = randomTable(ConfigSchema.keys, using: &rng)
        let text = ConfigWriter.yaml(table, comments: Bool.random(using: &rng))
        do {
            // Random values break cross-key rules at will; those have their own tests.
            let loaded = try ConfigParser.parse(text: text, file: "r.yaml", rules: [])
            #expect(loaded == table, "\(text)")
            #expect(PoiseConfiguration(values: loaded) == PoiseConfiguration(values: table))
        } catch {
            Issue.record("valid values rejected:\n\(error)\n\(text)")
        }
    }
}

@Test func writerQuotesAmbiguousStrings() throws {
    for text in ["", "yes", "true", "null", "123", "a: b", "# x", "-x", "it's", "back\\slash", "\"q\""] {
        let yaml = "board:\n  i2c_bus: \(ConfigWriter.quoted(text))\n"
        let loaded = try ConfigParser.parse(text: yaml, file: "q.yaml")
        #expect(loaded.string("board.i2c_bus") == text)
    }
}
