import Foundation
import PoiseConfig
import PoiseControl
import PoiseMath
import PoiseSettings
import PoiseTelemetry
import PoiseTick
import Synchronization

/// The configuration in force: the start's, then each reload's or parameter write's. Shared
/// by the SIGHUP reload thread and the ground station's receiving thread.
final class CurrentConfiguration: Sendable {
    private let value: Mutex<PoiseConfiguration>
    init(_ configuration: PoiseConfiguration) { value = Mutex(configuration) }
    var configuration: PoiseConfiguration { value.withLock { $0 } }
    func replace(_ configuration: PoiseConfiguration) { value.withLock { $0 = configuration } }
    /// Runs `change` on the value while no other thread changes it.
    func update<T>(_ change: (inout PoiseConfiguration) -> T) -> T { value.withLock { change(&$0) } }
}

/// The loop's answers to the ground station (``TelemetryReceiver``): parameters through the
/// reload path, arming through the supervisor's rules, setpoints into the pilot's mailbox.
final class GroundStationLink: GroundStation, @unchecked Sendable {
    let table = ParameterTable()
    let current: CurrentConfiguration
    let running: PoiseConfiguration
    let configPath: String?
    let tuning: SettingsMailbox<CoreTuning>
    let pilot: ManualControlMailbox
    /// The newest record (the arming rules are checked against it before asking the tick).
    let newestRecord: @Sendable () -> TickRecord?

    init(current: CurrentConfiguration, running: PoiseConfiguration, configPath: String?, tuning: SettingsMailbox<CoreTuning>,
         pilot: ManualControlMailbox, newestRecord: @escaping @Sendable () -> TickRecord?) {
        self.current = current
        self.running = running
        self.configPath = configPath
        self.tuning = tuning
        self.pilot = pilot
        self.newestRecord = newestRecord
    }

    var parameterNames: [String] { table.entries.map(\.name) }

    func parameterValue(at index: Int) -> Float {
        ParameterTable.value(table.entries[index].path, in: current.configuration)
    }

    /// Validated as a file's value would be (the key's range and unit, then the cross-key rules),
    /// set through the key's binding (``PoiseConfiguration/setting(_:to:source:)``: no file in
    /// between), then applied through ``LoopWork/apply``.
    func setParameter(at index: Int, to value: Float) -> Result<Float, CommandRefusal> {
        let entry = table.entries[index]
        let converted: ConfigValue
        switch ParameterTable.configValue(value, for: entry.path) {
        case .success(let v): converted = v
        case .failure(let e): return .failure(CommandRefusal(e.description))
        }
        return current.update { configuration in
            let fresh: PoiseConfiguration
            do {
                fresh = try configuration.setting(entry.path, to: converted, source: "parameter \(entry.name)")
            } catch {
                return .failure(CommandRefusal(Self.firstMessage(of: "\(error)")))
            }
            let (refused, posted) = LoopWork.apply(fresh, running: running, mailbox: tuning) { _ in "parameter" }
            if let first = refused.first { return .failure(CommandRefusal(first)) }
            guard posted else { return .failure(CommandRefusal("the loop did not take it (busy); try again")) }
            configuration = fresh
            return .success(ParameterTable.value(entry.path, in: fresh))
        }
    }

    /// A key that is no parameter, named by the same rule: refused with the reason its binding
    /// gives (``ConfigKey/reload``). Looked up in an index built once.
    func unknownParameter(_ name: String) -> String? {
        guard let key = Self.keysByName[name] else { return nil }
        switch key.reload {
        case .restart: return "\(key.path) not applied: restart to change"
        case .live: return "\(key.path) is not a number: change it in the file and reload (SIGHUP)"
        }
    }

    /// Every schema key by the parameter name the rule gives it (the first key of a name wins).
    static let keysByName: [String: ConfigKey] = Dictionary(ConfigSchema.keys.map { (ParameterTable.name(forKey: $0.path), $0) },
                                                            uniquingKeysWith: { first, _ in first })

    static func firstMessage(of text: String) -> String {
        String(text.split(separator: "\n").first ?? "invalid value")
    }

    /// Writes every parameter that differs from the file into it, comments kept (the editor
    /// `poise calibrate --save` uses).
    func storeParameters() -> CommandOutcome {
        guard let path = configPath else {
            return CommandOutcome(.failed, "running the built-in configuration: no file to write parameters to")
        }
        do {
            let text = try PoiseConfiguration.readText(path: path)
            let file = try PoiseConfiguration.load(path: path)
            let now = current.configuration
            let changed = table.entries.compactMap { entry -> (path: String, value: ConfigValue)? in
                guard let value = now.values[entry.path], value != file.values[entry.path] else { return nil }
                return (entry.path, value)
            }
            guard !changed.isEmpty else { return CommandOutcome(.accepted, "parameters already stored in \(path)") }
            let edited = try ConfigEditor.setting(changed, in: text, file: path)
            try edited.write(toFile: path, atomically: true, encoding: .utf8)
            return CommandOutcome(.accepted, "\(changed.count) parameters stored in \((path as NSString).lastPathComponent)")
        } catch {
            return CommandOutcome(.failed, "parameters not stored: \(Self.firstMessage(of: "\(error)"))")
        }
    }

    /// Arming by command: refused with its reason unless the source is `command` and the newest
    /// tick met every arming condition; otherwise handed to the tick, whose supervisor applies
    /// the same rules again.
    func arm(_ arm: Bool) -> CommandOutcome {
        let safety = CoreConfiguration.safety(current.configuration)
        guard safety.armSource == .command else {
            return CommandOutcome(.denied, "arming refused: safety.arm_source is not `command`")
        }
        guard arm else {
            pilot.request(.disarm)
            return CommandOutcome(.accepted)
        }
        guard let record = newestRecord() else { return CommandOutcome(.temporarilyRejected, "arming refused: not running yet") }
        if let reason = Self.armingRefusal(record, safety: safety) {
            return CommandOutcome(.temporarilyRejected, "arming refused: \(reason)")
        }
        pilot.request(.arm)
        return CommandOutcome(.accepted)
    }

    /// Why the supervisor would refuse to arm in the state `record` shows, or nil: asked of
    /// ``ArmingSupervisor/refusal(_:settings:)``, worded here.
    static func armingRefusal(_ record: TickRecord, safety: SafetySettings) -> String? {
        let conditions = ArmingConditions(state: record.armState,
                                          sensorHealthy: record.sampleValid && !record.readFailed && record.sensorState != .lost,
                                          estimatorReady: !record.filterFlags.contains(.initialising),
                                          attitudeConverged: !record.filterFlags.contains(.notConverged), tilt: record.attitude.tilt)
        return ArmingSupervisor.refusal(conditions, settings: safety).map(text)
    }

    /// A refusal in the words the ground station shows.
    static func text(_ refusal: ArmingRefusal) -> String {
        switch refusal {
        case .failsafe: "in failsafe until the fault clears"
        case .sensorUnhealthy: "unhealthy: no good sensor sample"
        case .filterInitialising: "not converged: filter initialising"
        case .attitudeNotEstablished: "not converged: attitude not re-established"
        case .notLevel(let tilt, let limit): "not level: \(degrees(tilt)) > \(degrees(limit)) deg (safety.arm_tilt_deg)"
        }
    }

    /// Degrees in plain ASCII: a ground station shows STATUSTEXT as ASCII.
    static func degrees(_ radians: Float) -> String { String(format: "%.1f", Double(radians) * 180 / .pi) }

    /// Stamped with the loop's clock (CLOCK_MONOTONIC s), as the gamepad's sticks are.
    func manualControl(_ message: ManualControlMessage) {
        pilot.publish(PilotMapping.control(message), at: Double(monotonicNanoseconds()) * 1e-9)
    }
}
