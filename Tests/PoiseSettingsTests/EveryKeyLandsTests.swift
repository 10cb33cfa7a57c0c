import PoiseConfig
import PoiseFusion
import PoiseMath
import PoiseOutputs
import PoiseSensors
import PoiseSettings
import PoiseTelemetry
import PoiseTick
import Testing

/// Every key of the schema, set in turn to a valid value other than the one it has, must
/// change the settings the tick is built with — or, for the few keys that by design act
/// outside the tick, the typed configuration section the loop reads them from. A key whose
/// link to the settings is dropped validates, is documented and does nothing; this finds it.
@Suite struct EveryKeyLandsTests {
    /// Keys that act outside the tick, with where they act: each must still change its section.
    static let outsideTheTick: [String: String] = [
        "board.profile": "loading: the profile's values stand in for the defaults",
        "board.kind": "which board the loop opens",
        "board.i2c_bus": "the bus the Linux board opens",
        "board.i2c_clock_hz": "`poise check`'s bus budget",
        "filter.magnetometer": "9D or 6D: which readings the loop hands the filter",
        "controller.quad.throttle": "the setpoint source of the quad",
        "controller.quad.setpoint_file": "the setpoint source of the quad",
        "loop.realtime_priority": "the loop thread's scheduling",
        "loop.cpu": "the loop thread's CPU",
        "loop.lock_memory": "mlockall before the loop starts",
        "loop.log_interval": "the statistics line",
        "recording.ring_capacity": "the recorder's ring",
        "recording.flush_interval": "the recorder's thread",
        "recording.sync_interval": "the recorder's thread",
        "safety.switch.chip": "the arming switch's line, read off the tick",
        "safety.switch.line": "the arming switch's line, read off the tick",
        "safety.switch.active_low": "the arming switch's line, read off the tick",
        "safety.switch.bias": "the arming switch's line, read off the tick",
        "safety.switch.debounce_ms": "the arming switch's debouncer, off the tick",
        "simulation.switch_on_s": "the simulated world's arming switch",
        "simulation.switch_off_s": "the simulated world's arming switch",
        "simulation.plant": "the simulated world",
        "simulation.motion": "the simulated world",
        "simulation.initial_tilt_deg": "the simulated world",
        "simulation.gust_torque": "the simulated world",
        "simulation.gust_time": "the simulated world",
        "simulation.gust_duration": "the simulated world",
        "simulation.seed": "the simulated world",
        "simulation.sensor_errors": "the simulated world",
    ]

    /// What the tick runs with, by name: filter, sensor, calibration, outputs, core, telemetry.
    static func tickSettings(_ c: PoiseConfiguration) -> [String: String] {
        [
            "filter": text(FilterChoice(configuration: c)),
            "gyro filters": text(c.filter.gyro),
            "sensor": text(MPU9250Settings(configuration: c)),
            "calibration": text(SensorCalibration(configuration: c)),
            "outputs": text(OutputBankSettings(configuration: c)),
            "controller": text(CoreConfiguration.controller(c)),
            "safety": text(CoreConfiguration.safety(c)),
            "startup bias": text(CoreConfiguration.startupBias(c)),
            "frame": text(OutputFrameTransform(OutputFrame(configuration: c.frame),
                                               declinationDegrees: Float(c.frame.declinationDegrees))),
            "tuning": text(CoreConfiguration.tuning(c)),
            "telemetry": text(TelemetrySettings(configuration: c)) + text(try? TelemetrySettings.address(configuration: c)),
        ]
    }

    /// The typed sections of the configuration the composition reads directly.
    static func sections(_ c: PoiseConfiguration) -> [String: String] {
        ["board": text(c.board), "filter": text(c.filter.name) + text(c.filter.magnetometer),
         "controller": text(c.controller), "loop": text(c.loop), "recording": text(c.recording),
         "simulation": text(c.simulation), "safety": text(c.safety)]
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
        let outside = Self.outsideTheTick[path] != nil
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
            for key in ConfigSchema.keys where Self.outsideTheTick[key.path] == nil {
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

    /// Adding a channel is what the list key does.
    @Test func channelListChangesTheOutputs() throws {
        var none = ConfigSchema.defaults
        none["outputs.channels"] = .list([])
        let base = try #require(Self.bases.first)
        #expect(Self.tickSettings(PoiseConfiguration(values: none)) != Self.tickSettings(PoiseConfiguration(values: base)))
    }

    /// The settings an empty file gives the filters are their own defaults, bit for bit:
    /// the schema's filter defaults are read from the settings structs.
    @Test func filterDefaultsAreTheFiltersOwn() {
        let c = FilterChoice(configuration: .default), built = FilterChoice()
        #expect(Self.text(c.poise) == Self.text(built.poise))
        #expect(Self.text(c.mekf) == Self.text(built.mekf))
        #expect(Self.text(c.madgwick) == Self.text(built.madgwick))
        #expect(Self.text(c.mahony) == Self.text(built.mahony))
        #expect(Self.text(c.complementary) == Self.text(built.complementary))
    }
}
