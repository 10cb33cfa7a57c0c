import Foundation
import PoiseConfig
import PoiseControl
import PoiseDeviceSettings
import PoiseFlightCore
import PoiseFlightSettings
import PoiseFusion
import PoiseMath
import PoiseOutputs
import PoiseSensors
import PoiseSettings
import PoiseTelemetry
import Testing

/// Every key of the schema, set in turn to a valid value other than the one it has, must
/// change the settings the tick is built with — or, for the few keys that by design act
/// outside the tick (their binding says where: `.outsideTheTick("the recorder's ring")`), the
/// typed configuration section the loop reads them from. A key whose link to the settings is
/// dropped validates, is documented and does nothing; this finds it.
@Suite struct EveryKeyLandsTests {
    /// What the tick runs with, by name: filter, sensor, calibration, outputs, core, telemetry.
    static func tickSettings(_ c: PoiseConfiguration) -> [String: String] {
        [
            "filter": text(FilterSettings(configuration: c)),
            "gyro filters": text(c.filter.gyro),
            "sensor": text(MPU9250Settings(configuration: c)),
            "calibration": text(SensorCalibration(configuration: c)),
            "outputs": text(OutputBankSettings(configuration: c)),
            "controller": text(FlightCoreFactory.controller(c)),
            "safety": text(FlightCoreFactory.safety(c)),
            "startup bias": text(FlightCoreFactory.startupBias(c)),
            "frame": text(OutputFrameTransform(OutputFrame(configuration: c.frame),
                                               declinationDegrees: Float(c.frame.declinationDegrees))),
            "tuning": text(FlightCoreFactory.tuning(c)),
            "telemetry": text(TelemetrySettings(configuration: c)) + text(try? TelemetrySettings.address(configuration: c)),
        ]
    }

    /// The typed sections of the configuration the composition reads directly.
    static func sections(_ c: PoiseConfiguration) -> [String: String] {
        ["board": text(c.board), "filter": text(c.filter.name) + text(c.filter.magnetometer),
         "controller": text(c.controller), "loop": text(c.loop), "recording": text(c.recording),
         "simulation": text(c.simulation), "safety": text(c.safety), "input": text(c.input)]
    }

    static func text(_ value: some Any) -> String {
        var out = ""
        dump(value, to: &out)
        return out
    }

    /// The configurations each key is tried in: some keys only act in a mode (a quad's gains
    /// with a quad controller, a pwm channel's period on a pwm channel).
    static let bases: [ConfigTable] = {
        var plain = ConfigSchema.defaults
        plain["outputs.channels"] = .list([
            channel(["name": "led", "kind": "gpio", "source": "armed", "line": 17]),
            channel(["name": "servo", "kind": "pwm", "source": "pitch", "channel": 0, "pulse_min_us": 1000.0, "pulse_max_us": 2000.0]),
            channel(["name": "esc", "kind": "pca9685", "source": "motor1", "channel": 3]),
        ])
        var balance = plain
        balance["controller.kind"] = "balance"
        var quad = plain
        quad["controller.kind"] = "quad_x"
        var trueNorth = plain
        trueNorth["frame.output"] = "xTrueNorthZVertical"
        return [plain, balance, quad, trueNorth]
    }()

    /// A channel table: element defaults, then `values`.
    static func channel(_ values: [String: ConfigValue]) -> ConfigTable {
        guard case .list(let element)? = ConfigSchema.key("outputs.channels")?.type else { return ConfigTable() }
        var table = ConfigTable()
        for key in element { if let value = key.defaultValue { table[key.path] = value } }
        for (path, value) in values { table[path] = value }
        return table
    }

    /// A valid value of `key` other than `current`, from the key's type and range.
    static func other(_ key: ConfigKey, than current: ConfigValue) -> ConfigValue? {
        switch (key.type, current) {
        case (.boolean, .boolean(let b)):
            return .boolean(!b)
        case (.integer(let range), .integer(let n)):
            return .integer(n < range.upperBound ? n + 1 : n - 1)
        case (.integerChoice(let choices, _), .integer(let n)):
            return choices.first { $0 != n }.map(ConfigValue.integer)
        case (.number(let range), .number(let x)):
            return .number(x < range.upperBound ? x + (range.upperBound - x) / 2 : range.lowerBound)
        case (.string, .string(let s)):
            return .string(key.path == "telemetry.address" ? "127.0.0.1:14550" : s + "9")
        case (.enumeration(let choices), .string(let s)):
            return choices.first { $0 != s }.map(ConfigValue.string)
        case (.axisMapping, .string(let s)):
            return .string(s == "+y-x+z" ? "+x+y+z" : "+y-x+z")
        case (.vector3, .vector3(let v)):
            return .vector3(v + [0.125, 0.25, 0.5])
        case (.matrix3, .matrix3(let m)):
            return .matrix3(ConfigMatrix3(m[row: 0] * 2, m[row: 1], m[row: 2]))
        default:
            return nil
        }
    }

    @Test(arguments: ConfigSchema.keys.filter { if case .list = $0.type { false } else { true } }.map(\.path))
    func keyChangesWhatTheTickRunsWith(_ path: String) throws {
        let key = try #require(ConfigSchema.key(path))
        let outside = key.actsOutsideTheTick != nil
        var landed = false
        for base in Self.bases {
            let current = try #require(base[path])
            let value = try #require(Self.other(key, than: current), "no other value for \(path)")
            var changed = base
            changed[path] = value
            let before = PoiseConfiguration(values: base), after = PoiseConfiguration(values: changed)
            let landing = outside ? Self.sections : Self.tickSettings
            if landing(before) != landing(after) { landed = true }
        }
        #expect(landed, "\(path) set to a value other than its default changes nothing \(outside ? "in its section" : "the tick runs with")")
    }

    @Test(arguments: {
        guard case .list(let element)? = ConfigSchema.key("outputs.channels")?.type else { return [String]() }
        return element.map(\.path)
    }())
    func channelKeyChangesTheOutputs(_ path: String) throws {
        guard case .list(let element)? = ConfigSchema.key("outputs.channels")?.type else { return }
        let key = try #require(element.first { $0.path == path })
        var landed = false
        for base in Self.bases.prefix(1) {
            let channels = base.list("outputs.channels")
            for index in channels.indices {
                var changed = channels
                let current = try #require(changed[index][path])
                let value = try #require(Self.other(key, than: current))
                changed[index][path] = value
                var table = base
                table["outputs.channels"] = .list(changed)
                let before = PoiseConfiguration(values: base), after = PoiseConfiguration(values: table)
                if Self.tickSettings(before) != Self.tickSettings(after) { landed = true }
            }
        }
        #expect(landed, "outputs.channels[].\(path) changes no channel's settings")
    }

    /// Two keys never land on the same field: a binding copied with the wrong key path would
    /// still change something, but the field of another key.
    @Test func noTwoKeysLandOnTheSameField() throws {
        var byLanding: [[String]: [String]] = [:]
        for base in Self.bases {
            let before = Self.tickSettings(PoiseConfiguration(values: base)).mapValues { $0.split(separator: "\n") }
            for key in ConfigSchema.keys where key.actsOutsideTheTick == nil {
                if case .list = key.type { continue }
                guard let current = base[key.path], let value = Self.other(key, than: current) else { continue }
                var changed = base
                changed[key.path] = value
                let after = Self.tickSettings(PoiseConfiguration(values: changed)).mapValues { $0.split(separator: "\n") }
                var landing: [String] = []
                for (name, lines) in before.sorted(by: { $0.key < $1.key }) {
                    let other = after[name] ?? []
                    if lines.count != other.count { landing.append("\(name): \(lines.count) lines") }
                    for i in lines.indices where i < other.count && lines[i] != other[i] { landing.append("\(name): \(i)") }
                }
                if !landing.isEmpty { byLanding[landing, default: []].append(key.path) }
            }
        }
        // Keys that choose one field together by design.
        let together: Set<[String]> = [["sensor.magnetometer", "sensor.magnetometer_rate_hz"]]  // the AK8963 mode
        for (landing, keys) in byLanding where Set(keys).count > 1 && !together.contains(Set(keys).sorted()) {
            Issue.record("\(Set(keys).sorted()) all land on the same fields: \(landing)")
        }
    }

    /// Every key of the committed reference table (docs/config.md, generated from the bindings)
    /// is bound, and no other: the keys above come from the bindings, so a binding dropped
    /// takes its key out of this suite's arguments too, and only a list written down
    /// elsewhere notices. (Regenerating the table after dropping one is a visible diff.)
    @Test func everyDocumentedKeyIsBound() throws {
        let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let docs = try String(contentsOf: root.appending(path: "docs/config.md"), encoding: .utf8)
        let reference = try #require(docs.range(of: "## Key reference")).upperBound
        let documented = Set(docs[reference...].split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `") else { return nil }
            return line.dropFirst(3).split(separator: "`").first.map(String.init)
        })
        var bound = Set<String>()
        for key in ConfigSchema.keys where !key.deprecated {
            bound.insert(key.path)
            if case .list(let element) = key.type {
                for inner in element where !inner.deprecated { bound.insert("\(key.path)[].\(inner.path)") }
            }
        }
        #expect(documented.subtracting(bound).sorted() == [], "documented in docs/config.md but bound nowhere")
        #expect(bound.subtracting(documented).sorted() == [], "bound but not in docs/config.md: regenerate it")
        #expect(documented.count > 150)
    }

    /// Adding a channel is what the list key does.
    @Test func channelListChangesTheOutputs() throws {
        var none = ConfigSchema.defaults
        none["outputs.channels"] = .list([])
        let base = try #require(Self.bases.first)
        #expect(Self.tickSettings(PoiseConfiguration(values: none)) != Self.tickSettings(PoiseConfiguration(values: base)))
    }

    /// The supervisor's settings of an empty file are its own defaults (its keys are bound to
    /// its settings directly), but for the tilt limits, which only a controller sets.
    @Test func safetyDefaultsAreTheSupervisorsOwn() {
        var safety = FlightCoreFactory.safety(PoiseConfiguration.default)
        safety.overrunLimit = SafetySettings().overrunLimit
        #expect(safety == SafetySettings(maxTilt: .infinity, armTilt: .infinity))  // no controller: no tilt limit
        #expect(PoiseConfiguration.default.safety.supervisor == SafetySettings())
    }

    /// The settings an empty file gives the filters are their own defaults, bit for bit:
    /// the schema's filter defaults are read from the settings structs.
    @Test func filterDefaultsAreTheFiltersOwn() {
        let c = FilterSettings(configuration: .default), built = FilterSettings()
        #expect(Self.text(c.poise) == Self.text(built.poise))
        #expect(Self.text(c.mekf) == Self.text(built.mekf))
        #expect(Self.text(c.madgwick) == Self.text(built.madgwick))
        #expect(Self.text(c.mahony) == Self.text(built.mahony))
        #expect(Self.text(c.complementary) == Self.text(built.complementary))
    }
}
