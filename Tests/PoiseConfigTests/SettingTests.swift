import Testing
@testable import PoiseConfig

/// A key set in a loaded configuration through its binding (the ground station's PARAM_SET)
/// gives what writing the whole configuration out and loading it again gave: the same
/// configuration, or the same first message but for the line of a file that no longer exists.
struct SettingTests {
    struct Message: Error, Equatable, CustomStringConvertible { var description: String }

    /// The old path: every value written as YAML and parsed again.
    static func throughTheFile(_ configuration: PoiseConfiguration, _ path: String, _ value: ConfigValue, source: String)
        -> Result<PoiseConfiguration, Message> {
        var values = configuration.values
        values[path] = value
        do {
            return .success(try PoiseConfiguration.parse(text: ConfigWriter.yaml(values, comments: false), file: source))
        } catch let error as ConfigErrors {
            return .failure(Message(description: error.errors[0].description))
        } catch {
            return .failure(Message(description: "\(error)"))
        }
    }

    static func throughTheBinding(_ configuration: PoiseConfiguration, _ path: String, _ value: ConfigValue, source: String)
        -> Result<PoiseConfiguration, Message> {
        do { return .success(try configuration.setting(path, to: value, source: source)) } catch let error as ConfigErrors {
            return .failure(Message(description: error.errors[0].description))
        } catch {
            return .failure(Message(description: "\(error)"))
        }
    }

    /// A file message without its line: `parameter X:123: key: …` → `parameter X: key: …`.
    static func withoutLine(_ text: String) -> String {
        guard let colon = text.firstIndex(of: ":") else { return text }
        let rest = text[text.index(after: colon)...]
        let digits = rest.prefix { $0.isNumber }
        guard !digits.isEmpty, rest.dropFirst(digits.count).first == ":" else { return text }
        return String(text[..<colon]) + String(rest.dropFirst(digits.count))
    }

    /// Values around and beyond a key's range, and float32 noise as a PARAM_SET carries it.
    static func candidates(_ key: ConfigKey) -> [ConfigValue] {
        switch key.type {
        case .number(let range):
            return [range.lowerBound, range.upperBound + 1, Double(Float(0.1))].map(ConfigValue.number)
        case .integer(let range):
            return [range.lowerBound, range.upperBound + 1].map(ConfigValue.integer)
        case .boolean:
            return [.boolean(true), .boolean(false)]
        default:
            return []
        }
    }

    static let bases: [PoiseConfiguration] = [
        .default,
        try! PoiseConfiguration.parse(text: "controller:\n  kind: quad_x\nsafety:\n  arm_source: command\n", file: "q"),
        try! PoiseConfiguration.parse(text: "controller:\n  kind: balance\n", file: "b"),
    ]

    @Test(arguments: ConfigSchema.keys.filter { $0.reload == .live }.map(\.path))
    func aLiveKeySetThroughItsBindingIsWhatTheFileGave(_ path: String) throws {
        let key = try #require(ConfigSchema.key(path))
        for base in Self.bases {
            for value in Self.candidates(key) {
                let old = Self.throughTheFile(base, path, value, source: "parameter P")
                let new = Self.throughTheBinding(base, path, value, source: "parameter P")
                switch (old, new) {
                case (.success(let a), .success(let b)): #expect(a == b, "\(path) = \(value)")
                case (.failure(let a), .failure(let b)): #expect(Self.withoutLine(a.description) == b.description, "\(path) = \(value)")
                default: Issue.record("\(path) = \(value): the file gave \(old), the binding \(new)")
                }
            }
        }
    }

    /// Every other key too, restart-only ones included (the cross-key rules are the file's).
    @Test func everyScalarKeyAndTheCrossKeyRules() throws {
        for key in ConfigSchema.keys where key.reload == .restart {
            for value in Self.candidates(key) {
                let old = Self.throughTheFile(PoiseConfiguration.default, key.path, value, source: "s")
                let new = Self.throughTheBinding(PoiseConfiguration.default, key.path, value, source: "s")
                switch (old, new) {
                case (.success(let a), .success(let b)): #expect(a == b, "\(key.path) = \(value)")
                case (.failure(let a), .failure(let b)): #expect(Self.withoutLine(a.description) == b.description, "\(key.path) = \(value)")
                default: Issue.record("\(key.path) = \(value): the file gave \(old), the binding \(new)")
                }
            }
        }
        // A rule across keys: fusing a magnetometer the sensor does not read.
        let sixD = try PoiseConfiguration.default.setting("filter.magnetometer", to: .boolean(false), source: "s")
            .setting("sensor.magnetometer", to: .boolean(false), source: "s")
        #expect(throws: ConfigErrors.self) { try sixD.setting("filter.magnetometer", to: .boolean(true), source: "s") }
    }

    @Test func anOutOfRangeValueIsRefusedWithTheKeysRangeAndUnit() {
        #expect(throws: ConfigErrors([ConfigError(file: "parameter SAFE_MAX_TILT", key: "safety.max_tilt_deg",
                                                  message: "`500.0` is out of range", allowed: "0…180 °")])) {
            try PoiseConfiguration.default.setting("safety.max_tilt_deg", to: .number(500), source: "parameter SAFE_MAX_TILT")
        }
    }
}
