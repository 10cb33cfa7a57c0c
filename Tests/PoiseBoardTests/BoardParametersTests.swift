import Foundation
import PoiseConfig
import PoiseFlightSettings
import PoiseReplay
import PoiseSettings
import PoiseTraces
import PropertyBased
import Testing
@testable import PoiseBoard

/// The one parameter table `poise run` and `poise-board` share (``FlightParameters``): the
/// schema's live number keys with their ranges and units, applied to the settings as the keys'
/// bindings apply them (so that the one reader of the stored parameters, PoiseFlightSettings'
/// `StoredParameters`, names types and ranges as the loader does); the board's ground station
/// answers and stores as the host's.
struct BoardParametersTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func configuration(_ name: String) throws -> PoiseConfiguration {
        try PoiseConfiguration.load(path: root.appending(path: "configs/\(name).yaml").path)
    }

    /// The settings `poise compile` writes for `configuration`: its recorded configuration too.
    static func compiled(_ configuration: PoiseConfiguration) -> FlightSettings {
        var settings = FlightCoreFactory.settings(configuration)
        var metadata = TraceMetadata()
        EmbeddedConfiguration.add(configuration, to: &metadata)
        settings.recordedConfiguration = metadata.lines
        return settings
    }

    @Test func theTableIsTheSchemasLiveNumbers() {
        let live = ConfigSchema.keys.filter { key in
            guard key.reload == .live else { return false }
            switch key.type {
            case .number, .integer, .boolean: return true
            default: return false
            }
        }
        #expect(live.map(\.path) == FlightParameters.all.map(\.path))
        let widening = Dictionary(ConfigSchema.safetyLimits.map { ($0.path, $0.widens) }, uniquingKeysWith: { a, _ in a })
        for parameter in FlightParameters.all {
            guard let key = ConfigSchema.key(parameter.path) else { continue }
            #expect(key.allowed == parameter.allowed, "\(parameter.path)")
            #expect(key.typeDescription == parameter.typeDescription, "\(parameter.path)")
            #expect(key.unit == parameter.unit || parameter.kind == .boolean, "\(parameter.path)")
            #expect(widening[parameter.path].map { $0 == .up ? FlightParameter.Widening.up : .down } == parameter.widens, "\(parameter.path)")
            #expect(parameter.name.utf8.count <= 16)
        }
    }

    /// Any parameter set to any value its key allows, on a robot, a quadrotor and a logger:
    /// the table's application to the resolved settings equals the settings resolved from the
    /// configuration with the key set through its binding (a PARAM_SET on the host).
    @Test func applyingIsWhatTheBindingGives() async throws {
        let configurations = try ["sim-balancing-robot", "sim-quad-x", "attitude-logger"].map(Self.configuration)
        let input = zip(Gen.int(in: 0...(FlightParameters.all.count - 1)), Gen.double(in: 0...1), Gen.int(in: 0...2))
        await propertyCheck(count: 300, input: input) { index, fraction, which in
            let parameter = FlightParameters.all[index]
            var value = parameter.minimum + fraction * (parameter.maximum - parameter.minimum)
            switch parameter.kind {
            case .number: value = (try? parameter.value(ofParameter: Float(value)).get()) ?? value
            case .integer: value = value.rounded()
            case .boolean: value = fraction < 0.5 ? 0 : 1
            }
            guard parameter.problem(with: value) == nil else { return }
            let configuration = configurations[which]
            let configValue: ConfigValue = switch parameter.kind {
            case .number: .number(value)
            case .integer: .integer(Int(value))
            case .boolean: .boolean(value == 1)
            }
            // A value a cross-key rule refuses is refused on both sides (checked below).
            guard let changed = try? configuration.setting(parameter.path, to: configValue, source: "test") else {
                var values = RecordedConfiguration.parameterValues(Self.compiled(configuration).recordedConfiguration) ?? []
                values[index] = value
                #expect(!FlightParameters.brokenRules(in: values).isEmpty, "\(parameter.path) \(value)")
                return
            }
            var applied = FlightCoreFactory.settings(configuration)
            parameter.apply(value, to: &applied)
            let expected = FlightCoreFactory.settings(changed)
            #expect(applied.controller == expected.controller, "\(parameter.path) \(value)")
            #expect(CompiledSettings.encode(FlightSettings(safety: applied.safety)) == CompiledSettings.encode(FlightSettings(safety: expected.safety)),
                    "\(parameter.path) \(value)")
        }
    }

    @Test func theRecordedConfigurationCarriesEveryParameter() throws {
        for name in ["sim-balancing-robot", "sim-quad-x", "attitude-logger"] {
            let configuration = try Self.configuration(name)
            let lines = Self.compiled(configuration).recordedConfiguration
            let values = try #require(RecordedConfiguration.parameterValues(lines))
            for (index, parameter) in FlightParameters.all.enumerated() {
                let expected: Double? = switch configuration.values[parameter.path] {
                case .number(let v): v
                case .integer(let v): Double(v)
                case .boolean(let v): v ? 1 : 0
                default: nil
                }
                #expect(values[index] == expected, "\(name): \(parameter.path)")
            }
            // Values written back into the lines read back as a configuration with them.
            var changed = values
            changed[FlightParameters.index(ofPath: "controller.balance.pitch.kp")!] = 31.5
            changed[FlightParameters.index(ofPath: "safety.auto_arm")!] = 0
            let rewritten = RecordedConfiguration.setting(changed, in: lines)
            var metadata = TraceMetadata()
            for line in rewritten { metadata.append(line: line) }
            let reread = try #require(try EmbeddedConfiguration.configuration(in: metadata, trace: "t"))
            #expect(reread.values["controller.balance.pitch.kp"] == .number(31.5))
            #expect(reread.values["safety.auto_arm"] == .boolean(false))
        }
    }

    static func number(_ value: ConfigValue) -> Double? {
        switch value {
        case .number(let v): v
        case .integer(let v): Double(v)
        case .boolean(let v): v ? 1 : 0
        default: nil
        }
    }

    static func directory() throws -> String {
        let path = NSTemporaryDirectory() + "poise-board-parameters-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The board's ground station: the host's names, values and refusals; storage writes the
    /// overlay the host writes (`# was` from the recorded configuration), applied at the next
    /// load; a widened safety limit is refused while armed.
    @Test func theBoardsGroundStationSetsAndStores() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = try Self.configuration("sim-balancing-robot")
        let compiledPath = directory + "/robot.pcfg"
        try Data(CompiledSettings.encode(Self.compiled(configuration))).write(to: URL(fileURLWithPath: compiledPath))
        let overlayPath = directory + "/" + StoredParameters.fileName
        let loaded = try BoardParameters.load(CompiledSettingsFile.settings(path: compiledPath), overlayPath: overlayPath)
        #expect(loaded.stored == nil)
        let reload = BoardReload(path: compiledPath, running: loaded.settings, mailbox: .init(), latest: .init(initial: .init()),
                                 overlayPath: overlayPath, parameters: BoardParameterState(loaded))
        let station = BoardGroundStation(arming: .init(safety: loaded.settings.safety, pilot: .init(), newestRecord: { nil }), reload: reload)
        #expect(station.parameterNames == FlightParameters.all.map(\.name))
        let kp = try #require(FlightParameters.index(ofName: "BAL_PIT_P"))
        #expect(station.parameterValue(at: kp) == Float(Self.number(configuration.values["controller.balance.pitch.kp"]!)!))
        // Refusals in the host's words.
        guard case .failure(let range) = station.setParameter(at: kp, to: 5000) else { Issue.record("5000 taken"); return }
        #expect(range.reason == "parameter BAL_PIT_P: controller.balance.pitch.kp: `5000.0` is out of range (allowed: 0…1000 1/rad)")
        let arm = try #require(FlightParameters.index(ofName: "SAFE_ARM_TILT"))
        guard case .failure(let rule) = station.setParameter(at: arm, to: 80) else { Issue.record("80 taken"); return }
        #expect(rule.reason.hasPrefix("parameter SAFE_ARM_TILT: safety.arm_tilt_deg: safety.arm_tilt_deg (80.0°) is above"))
        // A key that is no parameter, by the rule's name: as the host says it.
        #expect(station.unknownParameter("LOOP_RT") == "loop.rate_hz not applied: restart to change")
        #expect(station.unknownParameter("SAFE_REARM")?.hasPrefix("safety.rearm is not a number") == true)
        #expect(station.unknownParameter("NO_SUCH_NAME") == nil)
        // Taken, handed to the tick.
        #expect(try station.setParameter(at: kp, to: 31.5).get() == 31.5)
        #expect(reload.mailbox.take() != nil)
        guard case .balance(let balance) = reload.running.controller else { Issue.record("no balance"); return }
        #expect(balance.pitch.proportionalGain == 31.5)
        // Armed: a wider tilt limit is refused, a narrower one taken.
        var record = reload.latest.latest().value
        record.armState = .armed
        reload.latest.publish(record)
        let tilt = try #require(FlightParameters.index(ofName: "SAFE_MAX_TILT"))
        guard case .failure(let wider) = station.setParameter(at: tilt, to: 80) else { Issue.record("widened while armed"); return }
        #expect(wider.reason == "safety.max_tilt_deg 45 -> 80 widens a safety limit while armed; disarm first")
        #expect(try station.setParameter(at: tilt, to: 40).get() == 40)
        #expect(reload.mailbox.take() != nil)
        // Stored as the host stores: the changed keys, `# was` the compiled file's values.
        #expect(station.storeParameters() == .init(.accepted, "2 parameters stored in parameters.yaml"))
        let text = try String(contentsOfFile: overlayPath, encoding: .utf8)
        let host = try StoredParameters(parsing: text, file: overlayPath)
        #expect(host.entries.map(\.path) == ["controller.balance.pitch.kp", "safety.max_tilt_deg"])
        #expect(host[path: "controller.balance.pitch.kp"]?.configValue == .number(31.5))
        #expect(host[path: "controller.balance.pitch.kp"]?.configWas == configuration.values["controller.balance.pitch.kp"])
        #expect(host[path: "safety.max_tilt_deg"]?.configWas == configuration.values["safety.max_tilt_deg"])
        #expect(station.storeParameters() == .init(.accepted, "parameters already stored in parameters.yaml"))
        // Applied at the next start (and reload) over the compiled file.
        let again = try BoardParameters.load(CompiledSettingsFile.settings(path: compiledPath), overlayPath: overlayPath)
        #expect(again.stored?.summary == "controller.balance.pitch.kp 31.5, safety.max_tilt_deg 40.0")
        #expect(again.values[kp] == 31.5 && again.compiled[kp] != 31.5)
        guard case .balance(let stored) = again.settings.controller else { Issue.record("no balance"); return }
        #expect(stored.pitch.proportionalGain == 31.5)
        // SIGHUP: the compiled file and the overlay read again, handed to the tick; what was set
        // over the link is stored, so nothing is pending.
        reload.reload()
        #expect(reload.mailbox.take() != nil)
        #expect(reload.parameters.values == again.values && !reload.parameters.changed.contains(true))
        // A bad file: every problem with its line, nothing applied (nor by a reload).
        try "controller.balance.pitch.kp: 5000\nloop.rate_hz: 100\nsafety.auto_arm: 2\n".write(toFile: overlayPath, atomically: true, encoding: .utf8)
        reload.reload()
        #expect(reload.mailbox.take() == nil && reload.parameters.values == again.values)
        #expect(throws: StoredParametersError([
            overlayPath + ":1: controller.balance.pitch.kp: `5000.0` is out of range (allowed: 0…1000 1/rad)",
            overlayPath + ":2: loop.rate_hz: not a parameter (only numbers and switches a reload may change are stored on the board)",
            overlayPath + ":3: safety.auto_arm: expected a boolean, got `2` (allowed: true, false)",
        ])) { try BoardParameters.load(CompiledSettingsFile.settings(path: compiledPath), overlayPath: overlayPath) }
    }
}
