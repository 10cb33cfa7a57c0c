#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#endif
import PoiseControl
import PoiseFlightCore
import PoiseFlightSettings
import PoiseLive
import PoiseOutputs
import PoiseReporting
import PoiseTelemetry
import PoiseThreads
import PoiseTraces
import Synchronization

/// SIGHUP on the board: reads the compiled file again, the state directory's stored parameters
/// over it (BoardParameters.swift), on the signal thread, never the tick's,
/// and hands the tick what a running loop may change — gains, safety limits, output mappings
/// (``FlightSettings/tuning``) — as `poise run`'s reload does. What needs a restart (the
/// filter, the rig, an output's hardware, the rate…) keeps its running value and is named;
/// a damaged file, or one that widens a safety limit while armed, changes nothing. Parameters
/// set over MAVLink and not stored that it undoes are named on the log and to the ground station.
final class BoardReload: @unchecked Sendable {
    let path: String
    let mailbox: SettingsMailbox<ReloadableSettings>
    let latest: TripleBuffer<TickRecord>
    /// What the tick runs with now, and the parameters in force (the overlay of the state
    /// directory applied, and each PARAM_SET): changed under `lock`, by the signal thread and
    /// the ground station's receiving thread.
    var running: FlightSettings
    var parameters: BoardParameterState
    let overlayPath: String?
    /// The ground station's link, told what a reload undid (set under `lock` once it is up).
    var receiver: TelemetryReceiver?
    let lock = Mutex(())

    init(path: String, running: FlightSettings, mailbox: SettingsMailbox<ReloadableSettings>, latest: TripleBuffer<TickRecord>,
         overlayPath: String? = nil, parameters: BoardParameterState) {
        self.path = path
        self.overlayPath = overlayPath
        self.parameters = parameters
        self.running = running
        self.mailbox = mailbox
        self.latest = latest
    }

    func reload() { lock.withLock { _ in reloadHoldingLock() } }

    func reloadHoldingLock() {
        let compiled: FlightSettings
        do throws(TraceError) { compiled = try CompiledSettingsFile.settings(path: path) } catch {
            return say(error.description + "; not applied, the old values stay")
        }
        // The stored parameters over it, checked as at the start.
        let loaded: BoardParameters.Loaded
        do throws(StoredParametersError) { loaded = try BoardParameters.load(compiled, overlayPath: overlayPath) } catch {
            return say(error.description + "\npoise-board: SIGHUP: stored parameters refused; not applied, the old values stay")
        }
        let fresh = loaded.settings
        if latest.latest().value.armState == .armed {
            let widened = Self.widened(from: running.safety, to: fresh.safety)
            if !widened.isEmpty {
                return say(path + " not applied: " + Self.joined(widened) + " widens a safety limit while armed; disarm first")
            }
        }
        let restart = Self.restartOnly(running, fresh)
        var taken = fresh
        if restart.contains("output channels") { taken.channels = running.channels }
        let posted = post(taken)
        for what in restart { say(path + ": " + what + " not applied: restart to change") }
        guard posted else { return say(path + " not applied: the loop took no new settings (is it running?)") }
        running.controller = fresh.controller
        running.safety = fresh.safety
        running.channels = taken.channels
        let undone = Self.reverted(parameters, to: loaded.values)
        parameters = BoardParameterState(loaded)
        if let stored = loaded.stored, let overlayPath { say(overlayPath + ": stored parameters applied: " + stored.summary) }
        if let text = ReloadNotice.reverted(undone) {
            printToStandardError("poise-board: " + text + "\n")
            receiver?.announce(severity: ReloadNotice.severity, text)
        }
        say(path + " applied (gains, limits, output mappings)" + (restart.isEmpty ? "" : "; the settings above need a restart"))
    }

    /// The parameters set over MAVLink and not stored (in `state`) that taking `values` (table
    /// order) undoes: "BAL_PIT_P 32.0 -> 31.5".
    static func reverted(_ state: BoardParameterState, to values: [Double]) -> [String] {
        var changes: [String] = []
        for index in state.values.indices where index < values.count && state.changed[index] && state.values[index] != values[index] {
            let parameter = FlightParameters.all[index]
            changes.append(parameter.name + " " + parameter.text(state.values[index]) + " -> " + parameter.text(values[index]))
        }
        return changes
    }

    /// Hands the tick what a running loop takes of `settings`; false when it took nothing in 200 ms.
    func post(_ settings: FlightSettings) -> Bool {
        for _ in 0..<200 {
            if mailbox.post(settings.tuning) { return true }
            var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
            nanosleep(&pause, nil)
        }
        return false
    }

    func say(_ text: String) { printToStandardError("poise-board: SIGHUP: " + text + "\n") }

    /// What changed that a running loop cannot take.
    static func restartOnly(_ old: FlightSettings, _ new: FlightSettings) -> [String] {
        var changed: [String] = []
        // (The filters' settings are compared as the file codes them: not every one is Equatable.)
        if CompiledSettings.encode(FlightSettings(filter: old.filter)) != CompiledSettings.encode(FlightSettings(filter: new.filter)) {
            changed.append("the filter")
        }
        if old.gyroFilters != new.gyroFilters { changed.append("filter.gyro") }
        if old.loopRateHz != new.loopRateHz { changed.append("loop.rate_hz") }
        if old.startupBiasDuration != new.startupBiasDuration { changed.append("loop.gyroscope_bias_time") }
        if old.frame != new.frame || old.declinationDegrees != new.declinationDegrees { changed.append("the output frame") }
        if old.calibration != new.calibration || old.mounting != new.mounting { changed.append("the sensor's calibration and mounting") }
        if old.rig != new.rig || old.pca9685 != new.pca9685 { changed.append("the rig (bus, sensor, lines, telemetry, recorder)") }
        if old.setpoints != new.setpoints { changed.append("the setpoints") }
        if kind(old.controller) != kind(new.controller) { changed.append("the controller's kind") }
        let sameHardware = old.channels.count == new.channels.count
            && !zip(old.channels, new.channels).contains { $0.hardware != $1.hardware || $0.name != $1.name }
        if !sameHardware { changed.append("output channels") }
        return changed
    }

    static func kind(_ controller: ControllerSettings) -> Int {
        switch controller {
        case .none: 0
        case .balance: 1
        case .quad: 2
        }
    }

    /// Each limit `new` widens: "max tilt 45 -> 180 deg" (ASCII: a ground station shows it).
    static func widened(from old: SafetySettings, to new: SafetySettings) -> [String] {
        var wider: [String] = []
        func check(_ name: String, _ isWider: Bool) { if isWider { wider.append(name) } }
        check("safety.max_tilt_deg", new.maxTilt > old.maxTilt)
        check("safety.arm_tilt_deg", new.armTilt > old.armTilt)
        check("safety.arm_hold_s", new.armHoldTime < old.armHoldTime)
        check("safety.auto_arm", new.autoArm && !old.autoArm)
        check("safety.sensor_timeout_ms", new.sensorTimeout > old.sensorTimeout)
        check("safety.stall_ms", new.stallTime > old.stallTime)
        check("loop.overrun_limit", new.overrunLimit > old.overrunLimit)
        return wider
    }

    static func joined(_ names: [String]) -> String {
        var text = ""
        for name in names { text += (text.isEmpty ? "" : ", ") + name }
        return text
    }
}
