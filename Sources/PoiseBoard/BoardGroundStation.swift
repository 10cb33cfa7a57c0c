#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#endif
import PoiseControl
import PoiseFlightCore
import PoiseFlightSettings
import PoiseLive
import PoiseTelemetry
import PoiseThreads
import PoiseTraces
import Synchronization

/// The ground station's side of `poise-board run`, answered as `poise run` answers it:
/// arming, disarming and the pilot's sticks (PoiseLive's ``CommandArming``, with the safety
/// settings in force), and the parameters of the one table (``FlightParameters``): the same
/// names, values and refusals (type, range, the safety rules between keys, a safety limit
/// widened while armed), each PARAM_SET handed to the running tick; storage writes the state
/// directory's overlay (``StoredParameters``) as `poise run` writes it. A compiled file that
/// records no configuration has no parameter values: the board then lists none.
final class BoardGroundStation: GroundStation, @unchecked Sendable {
    let arming: CommandArming
    let reload: BoardReload
    /// The names, once (the table's order).
    let names: [String]
    /// Every other key the compiled file records, by the name the table's rule gives it (the
    /// first key of a name wins), and whether its value is a number or a switch.
    let otherKeys: [String: (path: String, isNumber: Bool)]

    init(arming: CommandArming, reload: BoardReload) {
        self.arming = arming
        self.reload = reload
        let (available, lines) = reload.lock.withLock { _ in (!reload.parameters.values.isEmpty, reload.running.recordedConfiguration) }
        names = available ? FlightParameters.all.map { $0.name } : []
        var others: [String: (path: String, isNumber: Bool)] = [:]
        let scalars = RecordedConfiguration.scalars(lines).sorted { $0.value.line < $1.value.line }
        for (path, scalar) in scalars where FlightParameters.index(ofPath: path) == nil {
            let name = FlightParameters.name(forKey: path)
            if others[name] != nil { continue }
            let isNumber = scalar.text == "true" || scalar.text == "false" || Double(String(scalar.text)) != nil
            others[name] = (path, isNumber)
        }
        otherKeys = others
    }

    var parameterNames: [String] { names }

    func parameterValue(at index: Int) -> Float {
        reload.lock.withLock { _ in index < reload.parameters.values.count ? Float(reload.parameters.values[index]) : .nan }
    }

    /// Checked as a file's value would be (the key's type and range, then the rules between
    /// keys), refused while armed when it widens a safety limit, applied to the running
    /// settings through the table and handed to the tick.
    func setParameter(at index: Int, to value: Float) -> Result<Float, CommandRefusal> {
        guard index < names.count else { return .failure(CommandRefusal(Self.noParameters)) }
        let parameter = FlightParameters.all[index]
        let source = "parameter " + parameter.name
        let converted: Double
        switch parameter.value(ofParameter: value) {
        case .success(let v): converted = v
        case .failure(let e): return .failure(CommandRefusal(e.message))
        }
        if let problem = parameter.problem(with: converted) {
            return .failure(CommandRefusal(source + ": " + parameter.path + ": " + problem + " (allowed: " + parameter.allowed + ")"))
        }
        return reload.lock.withLock { _ in
            var values = reload.parameters.values
            values[index] = converted
            if let broken = FlightParameters.brokenRules(in: values).first {
                return .failure(CommandRefusal(source + ": " + broken.path + ": " + broken.message))
            }
            // While armed, a safety limit may narrow but not widen (SIGHUP follows the same rule).
            if reload.latest.latest().value.armState == .armed,
               let widened = FlightParameters.widenedSafetyLimits(from: reload.parameters.values, to: values).first {
                return .failure(CommandRefusal(widened + " widens a safety limit while armed; disarm first"))
            }
            var fresh = reload.running
            parameter.apply(converted, to: &fresh)
            guard reload.post(fresh) else { return .failure(CommandRefusal("the loop did not take it (busy); try again")) }
            reload.running = fresh
            reload.parameters.values = values
            reload.parameters.changed[index] = true
            if let disk = reload.parameters.refused[index] {
                reload.parameters.compiled[index] = disk
                reload.parameters.refused[index] = nil
            }
            return .success(Float(converted))
        }
    }

    /// A configuration key that is no parameter, named by the table's rule: refused with the
    /// reason, as the host refuses it. Every number or switch a running loop takes is a
    /// parameter, so one that is not needs a restart; a key of another kind is changed in the
    /// YAML on the host. A name that means nothing here is ignored.
    func unknownParameter(_ name: String) -> String? {
        guard !names.isEmpty else { return Self.noParameters }
        guard let key = otherKeys[name] else { return nil }
        if key.isNumber { return key.path + " not applied: restart to change" }
        return key.path + " is not a number: change it in the YAML on the host, poise compile, copy it and reload (SIGHUP)"
    }

    /// Stores the parameters set over MAVLink in this run, and nothing else, in the state
    /// directory's overlay (atomically; applied at each start and SIGHUP; merged into the YAML
    /// on the host by `poise merge-parameters`). Each entry keeps the compiled file's value
    /// (`# was`, from the configuration it records), and an entry whose value is the file's
    /// again is removed. A parameter the compiled file on disk has changed since the start (a
    /// new file copied without a reload) is refused (not stored; the others are), and the
    /// command fails naming it; set again over the link after that, it is stored.
    func storeParameters() -> CommandOutcome {
        guard !names.isEmpty else { return CommandOutcome(.unsupported, Self.noParameters) }
        guard let overlayPath = reload.overlayPath else {
            return CommandOutcome(.failed, "not stored: no state directory (--state-dir)")
        }
        return reload.lock.withLock { _ in
            let disk: [Double]
            var overlay: StoredParameters
            do throws(TraceError) {
                let compiled = try CompiledSettingsFile.settings(path: reload.path)
                guard let values = RecordedConfiguration.parameterValues(compiled.recordedConfiguration) else {
                    return CommandOutcome(.failed, "parameters not stored: " + reload.path + " records no configuration")
                }
                disk = values
                let scalars = RecordedConfiguration.scalars(compiled.recordedConfiguration)
                do throws(StoredParametersError) {
                    overlay = try BoardParameters.read(overlayPath).map { text throws(StoredParametersError) in
                        try StoredParameters(parsing: text, file: overlayPath, isKey: { scalars[$0] != nil })
                    } ?? StoredParameters()
                } catch {
                    return CommandOutcome(.failed, "parameters not stored: " + Self.firstLine(error.description))
                }
            } catch {
                return CommandOutcome(.failed, "parameters not stored: " + Self.firstLine(error.description))
            }
            let before = overlay
            var state = reload.parameters
            var stored: [Int] = []
            var conflicts: [Int] = []
            for index in state.values.indices where state.changed[index] {
                let value = state.values[index]
                if disk[index] != state.compiled[index], disk[index] != value {
                    conflicts.append(index)
                    continue
                }
                if value == disk[index] {
                    overlay.remove(index)
                } else {
                    overlay.set(StoredParameters.Entry(index: index, value: value, was: disk[index]))
                }
                stored.append(index)
            }
            if overlay != before {
                do throws(TraceError) {
                    if overlay.isEmpty {
                        try BoardParameters.remove(overlayPath)
                    } else {
                        try BoardParameters.write(overlay.text(program: "poise-board run", configuration: reload.path), to: overlayPath)
                    }
                } catch {
                    return CommandOutcome(.failed, "parameters not stored: " + Self.firstLine(error.description))
                }
            }
            for index in stored { state.changed[index] = false; state.compiled[index] = disk[index] }
            for index in conflicts { state.refused[index] = disk[index] }
            reload.parameters = state
            let name = BoardParameters.fileName(overlayPath)
            var written = 0
            for index in stored where before[index]?.value != overlay[index]?.value { written += 1 }
            if !conflicts.isEmpty {
                var names = ""
                for index in conflicts { names += (names.isEmpty ? "" : ", ") + FlightParameters.all[index].name }
                let others = written == 0 ? "" : " (" + String(written) + " others stored)"
                return CommandOutcome(.failed, names + " not stored: edited in file since start" + others)
            }
            guard written > 0 else { return CommandOutcome(.accepted, "parameters already stored in " + name) }
            return CommandOutcome(.accepted, String(written) + " parameters stored in " + name)
        }
    }

    /// Arming by command with the safety settings in force (a PARAM_SET may have changed them).
    func arm(_ arm: Bool) -> CommandOutcome {
        var arming = self.arming
        arming.safety = reload.lock.withLock { _ in reload.running.safety }
        return arming.arm(arm)
    }

    func manualControl(_ message: ManualControlMessage) { arming.manualControl(message) }

    static func firstLine(_ text: String) -> String {
        guard let newline = text.firstIndex(of: "\n") else { return text }
        return String(text[..<newline])
    }

    static let noParameters = "the compiled file records no configuration: no parameters to set here; change the YAML on the host, "
        + "poise compile, copy it and reload (SIGHUP)"
}
