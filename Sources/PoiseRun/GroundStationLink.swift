import Foundation
import PoiseConfig
import PoiseControl
import PoiseFlightCore
import PoiseFlightSettings
import PoiseLive
import PoiseLoop
import PoiseMath
import PoiseSettings
import PoiseTelemetry
import PoiseThreads
import PoiseTraces
import Synchronization

/// The configuration in force: the start's, then each reload's or parameter write's. Shared
/// by the SIGHUP reload thread and the ground station's receiving thread.
final class CurrentConfiguration: Sendable {
    private let value: Mutex<PoiseConfiguration>
    /// How many times a reload replaced the value, and the file's values it last took.
    private let reloads = Mutex<(count: Int, file: ConfigTable)>((0, ConfigTable()))
    init(_ configuration: PoiseConfiguration) { value = Mutex(configuration) }
    var configuration: PoiseConfiguration { value.withLock { $0 } }
    /// A reload (SIGHUP): `configuration` is the file's as loaded with the stored parameters
    /// applied, `file` the file's own values (those of `configuration` when nil).
    func replace(_ configuration: PoiseConfiguration, file: ConfigTable? = nil) {
        value.withLock { current in
            current = configuration
            reloads.withLock { $0 = ($0.count + 1, file ?? configuration.values) }
        }
    }
    var lastReload: (count: Int, file: ConfigTable) { reloads.withLock { $0 } }
    /// Runs `change` on the value while no other thread changes it.
    func update<T>(_ change: (inout PoiseConfiguration) -> T) -> T { value.withLock { change(&$0) } }
}

/// What a SIGHUP reload needs of the ground station's side, once the link is up: whether the
/// outputs are armed (a reload that widens a safety limit is refused then, as a PARAM_SET is),
/// and the ground station told what the reload did (STATUSTEXT).
final class ReloadWitness: Sendable {
    private let parts = Mutex<(link: GroundStationLink, receiver: TelemetryReceiver)?>(nil)
    /// The loop's newest record, handed over every tick, when no link is attached (its only
    /// reader: the reload thread).
    private let newest: TripleBuffer<TickRecord>?

    init(newest: TripleBuffer<TickRecord>? = nil) { self.newest = newest }

    func attach(_ link: GroundStationLink, _ receiver: TelemetryReceiver) { parts.withLock { $0 = (link, receiver) } }

    /// Armed, as the newest record says: the link's, else the loop's own hand-over.
    var isArmed: Bool {
        if let link = parts.withLock({ $0 })?.link { return link.newestRecord()?.armState == .armed }
        return newest?.latest().value.armState == .armed
    }

    /// The values set over MAVLink (and not stored) that a reload to `fresh` undoes:
    /// "BAL_PIT_P 31.5 -> 30".
    func reverted(by fresh: PoiseConfiguration, current: PoiseConfiguration) -> [String] {
        guard let link = parts.withLock({ $0 })?.link else { return [] }
        return link.keysChangedOverLink.compactMap { key in
            guard fresh.values[key] != current.values[key] else { return nil }
            return "\(ParameterTable.name(forKey: key)) \(ParameterTable.value(key, in: current)) -> \(ParameterTable.value(key, in: fresh))"
        }
    }

    func tell(severity: UInt8, _ text: String) { parts.withLock { $0 }?.receiver.announce(severity: severity, text) }
}

/// The loop's answers to the ground station (``TelemetryReceiver``): parameters through the
/// reload path, arming through the supervisor's rules, setpoints into the pilot's mailbox.
final class GroundStationLink: GroundStation, @unchecked Sendable {
    let table = ParameterTable()
    let current: CurrentConfiguration
    let running: PoiseConfiguration
    let configPath: String?
    /// Where storage writes (``ParameterOverlayFile``): the state directory's overlay, nil
    /// without a state directory.
    let overlayPath: String?
    let tuning: SettingsMailbox<ReloadableSettings>
    let pilot: ManualControlMailbox
    /// The newest record (the arming rules are checked against it before asking the tick).
    let newestRecord: @Sendable () -> TickRecord?
    /// What storage needs: the keys set over MAVLink since the start (or since they were
    /// last stored), the file's values as read at the start (updated by each store), and the
    /// disk's value of each key refused for a conflict (set again over the link, it is stored
    /// over that value: the ground station was told and chose). A reload takes the file's
    /// values and undoes the PARAM_SETs before it, so it starts this over.
    private let storage: Mutex<StorageState>
    struct StorageState {
        var changed: Set<String> = []
        var fileAtStart: ConfigTable
        var refused: [String: ConfigValue?] = [:]
        var reloads: Int
    }

    init(current: CurrentConfiguration, running: PoiseConfiguration, configPath: String?, overlayPath: String? = nil,
         tuning: SettingsMailbox<ReloadableSettings>, pilot: ManualControlMailbox, newestRecord: @escaping @Sendable () -> TickRecord?) {
        self.current = current
        self.running = running
        self.configPath = configPath
        self.overlayPath = overlayPath
        self.tuning = tuning
        self.pilot = pilot
        self.newestRecord = newestRecord
        var fileAtStart = ConfigTable()
        if let configPath, let file = try? PoiseConfiguration.load(path: configPath) { fileAtStart = file.values }
        storage = Mutex(StorageState(fileAtStart: fileAtStart, reloads: current.lastReload.count))
    }

    /// The keys set over MAVLink and not stored yet, sorted.
    var keysChangedOverLink: [String] {
        storage.withLock { state in
            Self.followReloads(&state, current.lastReload)
            return state.changed.sorted()
        }
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
            // While armed, a safety limit may narrow but not widen (SIGHUP follows the same rule).
            if newestRecord()?.armState == .armed,
               let widened = ConfigSchema.widenedSafetyLimits(from: configuration.values, to: fresh.values).first {
                return .failure(CommandRefusal("\(widened) widens a safety limit while armed; disarm first"))
            }
            let (refused, posted) = LoopWork.apply(fresh, running: running, mailbox: tuning) { _ in "parameter" }
            if let first = refused.first { return .failure(CommandRefusal(first)) }
            guard posted else { return .failure(CommandRefusal("the loop did not take it (busy); try again")) }
            configuration = fresh
            storage.withLock { state in
                Self.followReloads(&state, current.lastReload)
                state.changed.insert(entry.path)
                if let disk = state.refused.removeValue(forKey: entry.path) { state.fileAtStart[entry.path] = disk }
            }
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

    /// Stores the keys set over MAVLink in this run, and nothing else, in the state directory's
    /// overlay (``ParameterOverlayFile``: written atomically, applied at each start and SIGHUP,
    /// merged into the YAML by `poise merge-parameters`); the configuration file is never
    /// written (an installed board's /etc is read-only). Each entry keeps the file's value
    /// (`# was`), and an entry whose value is the file's again is removed. A key set over
    /// MAVLink that was also edited in the file since the start is refused (not stored; the
    /// others are), and the command fails naming it; set again over the link after that, it is
    /// stored. A reload (SIGHUP) takes the file as it is then as the new start. Without a state
    /// directory nothing is stored and the command fails saying so.
    func storeParameters() -> CommandOutcome {
        guard let path = configPath else {
            return CommandOutcome(.failed, "running the built-in configuration: no file to store parameters for")
        }
        guard let overlayPath else {
            return CommandOutcome(.failed, "not stored: no state directory (--state-dir)")
        }
        let (changedKeys, fileAtStart) = storage.withLock { state in
            Self.followReloads(&state, current.lastReload)
            return (state.changed, state.fileAtStart)
        }
        do {
            let file = try PoiseConfiguration.load(path: path).values
            var overlay = try ParameterOverlayFile.read(overlayPath) ?? StoredParameters()
            let before = overlay
            let now = current.configuration
            var stored: [String] = []
            var conflicts: [String] = []
            for entry in table.entries where changedKeys.contains(entry.path) {
                guard let value = now.values[entry.path] else { continue }
                if file[entry.path] != fileAtStart[entry.path], file[entry.path] != value {
                    conflicts.append(entry.path)
                    continue
                }
                guard let index = FlightParameters.index(ofPath: entry.path) else { continue }
                if value == file[entry.path] {
                    overlay.remove(index)
                } else if let stored = StoredParameters.Entry(path: entry.path, value: value, was: file[entry.path]) {
                    overlay.set(stored)
                }
                stored.append(entry.path)
            }
            if overlay != before {
                if overlay.isEmpty {
                    try ParameterOverlayFile.remove(overlayPath)
                } else {
                    try ParameterOverlayFile.write(overlay.text(program: "poise run", configuration: path), to: overlayPath)
                }
            }
            storage.withLock { state in
                for key in stored { state.changed.remove(key); state.fileAtStart[key] = file[key] }
                for key in conflicts { state.refused[key] = file[key] }
            }
            let name = (overlayPath as NSString).lastPathComponent
            let written = stored.filter { before[path: $0]?.value != overlay[path: $0]?.value }
            if !conflicts.isEmpty {
                let others = written.isEmpty ? "" : " (\(written.count) others stored)"
                return CommandOutcome(.failed, "\(conflicts.map(ParameterTable.name(forKey:)).joined(separator: ", ")) not stored: edited in file since start\(others)")
            }
            guard !written.isEmpty else { return CommandOutcome(.accepted, "parameters already stored in \(name)") }
            return CommandOutcome(.accepted, "\(written.count) parameters stored in \(name)")
        } catch let error as ConfigErrors {
            return CommandOutcome(.failed, "parameters not stored: \(Self.firstMessage(of: error.description))")
        } catch {
            return CommandOutcome(.failed, "parameters not stored: \(Self.firstMessage(of: "\(error)"))")
        }
    }

    /// After a reload the file as it took it is the start again, and nothing is set over the link.
    static func followReloads(_ state: inout StorageState, _ reload: (count: Int, file: ConfigTable)) {
        guard reload.count != state.reloads else { return }
        state = StorageState(fileAtStart: reload.file, reloads: reload.count)
    }

    /// Arming by command, answered as the board answers it (``CommandArming``), with the
    /// safety settings now in force.
    func arm(_ arm: Bool) -> CommandOutcome {
        CommandArming(safety: FlightCoreFactory.safety(current.configuration), pilot: pilot, newestRecord: newestRecord).arm(arm)
    }

    /// Stamped with the loop's clock (CLOCK_MONOTONIC s), as the gamepad's sticks are.
    func manualControl(_ message: ManualControlMessage) {
        CommandArming(safety: SafetySettings(), pilot: pilot, newestRecord: newestRecord).manualControl(message)
    }
}
