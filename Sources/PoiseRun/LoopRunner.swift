import Foundation
import Logging
import PoiseConfig
import PoiseControl
import PoiseDeviceSettings
import PoiseFlightCore
import PoiseFlightSettings
import PoiseFusion
import PoiseHAL
import PoiseLinux
import PoiseLive
import PoiseLogging
import PoiseLoop
import PoiseOutputs
import PoiseReplay
import PoiseReporting
import PoiseRig
import PoiseSchedules
import PoiseSensors
import PoiseSettings
import PoiseSimulation
import PoiseTelemetry
import PoiseThreads
import PoiseTraces
import PoiseMath

/// Builds and runs the loop a configuration describes: the filter it names (specialised,
/// not an existential), the board (`linux`, or `sim` with the plant that fits the
/// controller), the recorder, telemetry and SIGHUP reloads. `poise run`, `poise record` and
/// ``MotionManager`` all start here.
public enum LoopRunner {
    public static func run(_ configuration: PoiseConfiguration, options: RunOptions) throws(RunError) -> RunResult {
        var work = LoopWork(configuration: configuration, options: options, settings: FlightCoreFactory.settings(configuration))
        do {
            return try FilterSettings(configuration: configuration).run(&work)
        } catch let error as RunError {
            throw error
        } catch {
            throw RunError("\(error)")
        }
    }
}

struct LoopWork: FilterKindWork {
    let configuration: PoiseConfiguration
    let options: RunOptions
    /// The configuration resolved once: the core's settings and the rig's (``FlightSettings/rig``),
    /// what the board reads from the compiled file.
    let settings: FlightSettings

    mutating func run<Filter: AttitudeFilter>(_ filter: inout Filter) throws -> RunResult {
        var outputs = OutputBankSettings(configuration: configuration)
        if options.sensorOnly { outputs.channels = [] }
        var core = settings.core(filter: filter)
        if options.sensorOnly { core.controller = .none }
        // Through the status line's writer: a driver's line erases the status first.
        var logger = Logger(label: "poise.sensors") { StandardErrorLogHandler(label: $0) }
        if options.quiet { logger.logLevel = .warning }
        switch configuration.board.kind {
        case .linux:
            if options.virtualDuration != nil {
                throw RunError("simulated time needs the simulated board: set `board.kind: sim` (or use `poise run` on the board)")
            }
            let parts: LinuxRigParts
            do {
                parts = try LinuxRigParts(settings.rig, calibration: settings.calibration, outputs: outputs, log: DriverLog(logger),
                                          warn: { [logger] in logger.warning("\($0)") })
            } catch { throw RunError(error.description) }
            defer { parts.stop() }
            return try start(board: parts.board, core: core, outputs: outputs, truth: false, armSwitch: parts.armSwitch?.state,
                             encoders: parts.encoders?.state)
        case .sim:
            let driver = SimulatedRig.driver(configuration, quiet: options.quiet)
            switch SimulatedRig.plant(configuration) {
            case .balancingRobot:
                let board = try simulatedBoard(driver, outputs, SimulatedRig.balancingRobotWorld(configuration))
                return try start(board: board, core: core, outputs: outputs, truth: true, armSwitch: board.armSwitch?.state,
                                 encoders: board.wheelEncoders?.state)
            case .quadrotor:
                let board = try simulatedBoard(driver, outputs, SimulatedRig.quadrotorWorld(configuration))
                return try start(board: board, core: core, outputs: outputs, truth: true, armSwitch: board.armSwitch?.state,
                                 encoders: board.wheelEncoders?.state)
            case .motion, .auto:
                let board = try simulatedBoard(driver, outputs, SimulatedRig.scriptedWorld(configuration))
                return try start(board: board, core: core, outputs: outputs, truth: true, armSwitch: board.armSwitch?.state,
                                 encoders: board.wheelEncoders?.state)
            }
        }
    }

    func simulatedBoard<World: SimulatedWorld>(_ driver: MPU9250<SimulatedI2CBus<HeldMotion>>, _ outputs: OutputBankSettings,
                                               _ world: World) throws -> SimulatedBoard<World> {
        do { return try SimulatedRig.board(configuration, driver: driver, outputs: outputs, world: world) } catch {
            throw RunError(error.description)
        }
    }

    /// The setpoint columns of a recording whose ticks may follow a pilot: with a telemetry link
    /// (MANUAL_CONTROL) or a gamepad, by the controller's kind.
    var pilotColumns: RecordingColumns.PilotColumns {
        guard !options.sensorOnly,
              options.telemetry != nil || settings.rig.telemetryAddress != nil || settings.rig.gamepad.enabled else { return .none }
        switch settings.controller {
        case .none: return .none
        case .balance: return .drive
        case .quad: return .quad
        }
    }

    func start<Board: BoardBackend, Filter: AttitudeFilter>(board: Board, core: FlightCore<Filter>,
                                                            outputs: OutputBankSettings, truth: Bool,
                                                            armSwitch: ArmSwitchState? = nil,
                                                            encoders: WheelEncoderState? = nil) throws -> RunResult {
        let rig = settings.rig
        // Setpoints (checked the same way by `poise check`).
        let setpoints: SetpointSchedule
        do { setpoints = try SetpointSchedule.forConfiguration(configuration, configPath: options.configPath) } catch {
            throw RunError("\(error)")
        }
        let drive: DriveSchedule
        do { drive = try DriveSchedule.forConfiguration(configuration, configPath: options.configPath) } catch {
            throw RunError("\(error)")
        }
        // Recorder and status ring.
        let ring = TickRecordRing(capacity: rig.recording.ringCapacity)
        var writer: TraceWriter? = nil
        var columns: RecordingColumns? = nil
        if let path = options.recordPath {
            // The filtered gyroscope too where filter.gyro filters it (docs/trace-format.md).
            let filtered = settings.gyroFilters.isActive && !options.sensorOnly
            let cols = RecordingColumns(channels: outputs.channels, magnetometer: rig.sensor.magnetometerMode != .powerDown, truth: truth,
                                        pilot: options.virtualDuration == nil ? pilotColumns : .none, filteredGyro: filtered)
            // How to replay it: the effective configuration (a sensor-only run has no
            // controller and no outputs: the lines `poise-board record` makes from the compiled file's).
            var embedded = TraceMetadata()
            EmbeddedConfiguration.add(configuration, to: &embedded)
            let lines = options.sensorOnly ? RecordingFile.sensorOnlyLines(embedded.lines) : embedded.lines
            var metadata = RecordingFile.metadata(source: truth ? "poise-run-sim" : "poise-run", rateHz: settings.loopRateHz,
                                                  configurationLines: lines)
            if filtered { metadata.set("recording_version", "2") }
            do {
                writer = try RecordingFile.open(path: path, columns: cols, metadata: metadata, overwrite: options.overwrite,
                                                syncInterval: rig.recording.syncInterval)
            } catch {
                throw RunError(error.description)
            }
            columns = cols
        }
        if let duration = options.virtualDuration {
            return try runVirtual(board: board, core: core, outputs: outputs, writer: writer.take(), columns: columns,
                                  setpoints: setpoints, drive: drive, armSwitch: armSwitch, encoders: encoders,
                                  duration: duration)
        }
        var reporterSettings = TickReporter.Settings(
            live: settings, channels: outputs.channels, recordingName: options.recordPath ?? "", quiet: options.quiet,
            statusLine: options.statusLine,
            notifier: options.notifySystemd ? ServiceNotifier(environment: ServiceNotifier.processEnvironment()) : nil)
        if configuration.board.kind == .sim { reporterSettings.sensorBus = "sim" }
        let reporter = TickReporter(ring: ring, settings: reporterSettings, recording: writer.take(), columns: columns)
        // Telemetry: the signing key read (and its file's mode checked) before anything starts;
        // a signed link's timestamps outlive the run (no replay across restarts).
        let streamSettings = rig.telemetry
        let address = try options.telemetry ?? rig.telemetryAddress.map({ try TelemetryAddress(parsing: $0) })
        let link: TelemetryLink?
        do {
            link = try TelemetryLink.open(settings: streamSettings, address: address, configurationFile: options.configPath,
                                          stateDirectory: options.stateDirectory) { [quiet = options.quiet] warning in
                if !quiet { printToStandardError("poise: warning: \(warning)\n") }
            }
        } catch {
            throw RunError(error.description)
        }
        let telemetry = link?.sender
        let key = link?.key
        let signingStore = link?.store
        // SIGHUP: parse and validate off the tick, hand over between ticks.
        let mailbox = SettingsMailbox<ReloadableSettings>()
        let running = configuration
        let current = CurrentConfiguration(configuration)
        let path = options.configPath
        // The parameters stored on the board (``ParameterOverlayFile``), applied over the file at start and each SIGHUP.
        let overlayPath = path == nil ? nil : MAVLinkSigningStore.directory(option: options.stateDirectory).map(ParameterOverlayFile.path)
        // Whether the loop is armed, for the reload's safety-limit rule: through the link when
        // there is one, else from the loop's newest record (unless the library reads that one).
        let newest = options.latest == nil ? TripleBuffer<TickRecord>(initial: TickRecord()) : nil
        let witness = ReloadWitness(newest: newest)
        if options.handlesSignals { options.signals.start(onReload: {
            guard let path else {
                printToStandardError("poise: SIGHUP: running the built-in configuration, nothing to reload\n")
                return
            }
            Self.reload(path: path, overlay: overlayPath, running: running, mailbox: mailbox, current: current, witness: witness)
        }) }
        // The ground station's receive path, on its own thread, over the telemetry socket.
        let pilot = ManualControlMailbox()
        var receiver: TelemetryReceiver? = nil
        if let telemetry {
            let link = GroundStationLink(current: current, running: running, configPath: path, overlayPath: overlayPath, tuning: mailbox, pilot: pilot,
                                         newestRecord: { [telemetry] in telemetry.newestRecord })
            let view = TelemetryReceiver.TelemetrySettingsView(systemID: streamSettings.systemID, componentID: streamSettings.componentID,
                                                               acceptCommands: streamSettings.acceptCommands,
                                                               maximumRate: streamSettings.maximumIncomingRate)
            receiver = TelemetryReceiver(sender: telemetry, station: link, settings: view, key: key, store: signingStore)
            receiver?.log = { printToStandardError("poise: \($0)\n") }
            witness.attach(link, receiver!)
        }
        // The pilot's gamepad: read on its own thread into the same mailbox.
        let gamepad: GamepadReader?
        do throws(GamepadError) {
            gamepad = try GamepadLink.start(rig.gamepad, armSource: settings.safety.armSource, mailbox: pilot,
                                            program: "poise", quiet: options.quiet)
        } catch {
            throw RunError(error.description)
        }
        defer { gamepad?.stop() }
        var links = LoopLinks(signals: options.signals, tuning: mailbox, ring: ring, telemetry: telemetry,
                              latest: options.latest ?? newest, armSwitch: armSwitch, setpoints: setpoints,
                              pilot: receiver == nil && gamepad == nil ? nil : pilot,
                              drive: drive, encoders: encoders)
        links.follow(rig)
        let loopSettings = LoopSettings(live: settings, duration: options.duration)
        var loop = LiveLoop(board: board, core: core, links: links, settings: loopSettings)
        reporter.start()
        telemetry?.start()
        receiver?.start()
        let quiet = options.quiet
        loop.run(processStart: options.processStart) { warnings in
            if !quiet { for w in warnings { printToStandardError("poise: warning: \(w)\n") } }
        }
        var problems: [String] = []
        do { try reporter.finish() } catch { problems.append(error.description) }
        if let e = reporter.recordingError { problems.append(e) }
        receiver?.stop()
        telemetry?.stop()
        let seconds = loop.statistics.seconds
        for e in loop.board.release() { problems.append(e.description) }
        var result = RunResult(statistics: loop.statistics, seconds: seconds, rateHz: settings.loopRateHz,
                               signal: options.signals.signal, problems: problems, report: nil)
        result.failsafe = reporter.failsafe
        return result
    }

    /// `poise simulate`: the same ticks in simulated time, recording written as they come.
    func runVirtual<Board: BoardBackend, Filter: AttitudeFilter>(
        board: Board, core: FlightCore<Filter>, outputs: OutputBankSettings, writer: consuming TraceWriter?,
        columns: RecordingColumns?, setpoints: SetpointSchedule, drive: DriveSchedule, armSwitch: ArmSwitchState?,
        encoders: WheelEncoderState?, duration: Double
    ) throws -> RunResult {
        let rate = configuration.loop.rateHz
        // SIGINT/SIGTERM end the run at the next tick, so the recording ends on a whole record.
        if options.handlesSignals { options.signals.start(onReload: {}) }
        let links = LoopLinks(signals: options.signals, armSwitch: armSwitch, setpoints: setpoints, drive: drive,
                              encoders: encoders)
        var loop = LiveLoop(board: board, core: core, links: links, settings: LoopSettings(rateHz: rate))
        let isPulse = outputs.channels.map { if case .gpio = $0.hardware { false } else { true } }
        var report = SimulationReport(channelNames: outputs.channels.map(\.name), expectedTicks: Int(duration * rate))
        var out = writer
        let transitions = TransitionMessage(safety: FlightCoreFactory.safety(configuration))
        let sensorSettings = MPU9250Settings(configuration: configuration)
        var start = RecordingStart(), recorded = 0
        loop.runVirtual(duration: duration) { _, record in
            // From the first tick with a sample on, as `poise run` records.
            if let columns {
                start.admit(record) {
                    columns.write($0, to: &out!)
                    recorded += 1
                }
            }
            report.add(record, isPulse: isPulse)
            if record.eventReason != .none, !options.quiet {
                let reason = record.eventReason, state = record.armState
                printToStandardError("poise: \(record.time) s: \(transitions.text(state: state, reason: reason, attitude: record.attitude))\n")
            }
            // The driver's notices, as `poise run` logs them (a lost sensor, a silent magnetometer).
            if !record.sensorNotices.isEmpty, !options.quiet {
                for message in sensorSettings.messages(for: record.sensorNotices, bus: "sim") where message.shown(quiet: false) {
                    printToStandardError("poise: \(record.time) s: sensor: \(message.text)\n")
                }
            }
        }
        var problems: [String] = []
        for e in loop.board.release() { problems.append(e.description) }
        if var w = out.take() {
            do { try w.close() } catch { problems.append(error.description) }
        }
        var result = RunResult(statistics: loop.statistics, seconds: Double(loop.statistics.ticks) / rate, rateHz: rate,
                               signal: options.signals.signal, problems: problems, report: report)
        result.recordedTicks = recorded
        return result
    }

    /// SIGHUP: load and check the file again, and the stored parameters' `overlay` over it (on
    /// the reload thread, never the signal thread); report every changed key a running loop
    /// cannot take, with its line, as "not applied: restart to change", and post the rest. A
    /// file or overlay with any problem changes nothing.
    static func reload(path: String, overlay: String? = nil, running: PoiseConfiguration, mailbox: SettingsMailbox<ReloadableSettings>,
                       current: CurrentConfiguration? = nil, witness: ReloadWitness? = nil) {
        let fresh: PoiseConfiguration
        let file: PoiseConfiguration
        let text: String
        var stored: StoredParameters? = nil
        do {
            file = try PoiseConfiguration.load(path: path)
            text = try PoiseConfiguration.readText(path: path)
            if let overlay { (fresh, stored) = try ParameterOverlayFile.apply(overlay, to: file) } else { fresh = file }
        } catch {
            printToStandardError("poise: SIGHUP: \(path) not applied, the old values stay:\n\(error.description)\n")
            return
        }
        // While armed a safety limit may narrow, never widen (as for PARAM_SET): the file waits.
        if let witness, let current, witness.isArmed,
           case let widened = ConfigSchema.widenedSafetyLimits(from: current.configuration.values, to: fresh.values), !widened.isEmpty {
            let text = "\(path) not applied: \(widened.joined(separator: ", ")) widens a safety limit while armed; disarm first"
            printToStandardError("poise: SIGHUP: \(text)\n")
            return witness.tell(severity: 4, "SIGHUP: \(text)")
        }
        let lines = ConfigParser.writtenLines(text: text, file: path)
        let (refused, posted) = apply(fresh, running: running, mailbox: mailbox) { key in
            if let overlay, let line = stored?[path: key]?.line { return "\(overlay):\(line)" }
            return lines[key].map { "\(path):\($0)" } ?? "\(path) (now its default)"
        }
        for line in refused { printToStandardError("poise: SIGHUP: \(line)\n") }
        if posted {
            let reverted = current.map { witness?.reverted(by: fresh, current: $0.configuration) ?? [] } ?? []
            if let text = ReloadNotice.reverted(reverted) {
                printToStandardError("poise: \(text)\n")
                witness?.tell(severity: ReloadNotice.severity, text)
            }
            current?.replace(fresh, file: file.values)
            let withStored = stored.map { " with \(overlay ?? "") (\($0.summary))" } ?? ""
            printToStandardError("poise: SIGHUP: \(path)\(withStored) applied (gains, limits, output mappings)\(refused.isEmpty ? "" : "; the keys above need a restart")\n")
        }
    }

    /// The one path a new configuration takes into a running loop (SIGHUP and the ground
    /// station's PARAM_SET): every changed key whose binding is restart-only
    /// (``ConfigKey/reload``) is refused, as "`position`: key not applied: restart to change",
    /// and keeps its running value; the rest is posted to the tick. Returns the refusals, and
    /// whether the tick was handed the new tuning (it takes one per tick; a second change
    /// within a tick waits for it, a few ms at most).
    static func apply(_ fresh: PoiseConfiguration, running: PoiseConfiguration, mailbox: SettingsMailbox<ReloadableSettings>,
                      position: (String) -> String) -> (refused: [String], posted: Bool) {
        var refused: [String] = []
        var kept = fresh.values
        for key in ConfigSchema.keys where fresh.values[key.path] != running.values[key.path] {
            if key.reload == .restart {
                refused.append("\(position(key.path)): \(key.path) not applied: restart to change")
                kept[key.path] = running.values[key.path]
            } else if restartOnlyElementsDiffer(key, fresh.values[key.path], running.values[key.path]) {
                refused.append("\(position(key.path)): \(key.path) hardware (kind, chip, line, channel) not applied: restart to change; "
                    + "the running channels keep their mappings")
                kept[key.path] = running.values[key.path]
            }
        }
        // What the tick runs with: the new values a running loop takes, the running ones of the rest.
        let tuning = ReloadableSettings(tuning: kept == fresh.values ? fresh : PoiseConfiguration(values: kept))
        for _ in 0 ..< 200 {
            if mailbox.post(tuning) { return (refused, true) }
            usleep(1000)
        }
        return (refused, false)
    }

    /// Whether a live list key's elements changed in a key their binding makes restart-only (the
    /// hardware a running loop opened: an output channel's kind, chip, line, …), or in number.
    static func restartOnlyElementsDiffer(_ key: ConfigKey, _ fresh: ConfigValue?, _ running: ConfigValue?) -> Bool {
        guard case .list(let elementKeys) = key.type, case .list(let new)? = fresh, case .list(let old)? = running else { return false }
        guard new.count == old.count else { return true }
        return zip(new, old).contains { new, old in
            elementKeys.contains { $0.reload == .restart && new[$0.path] != old[$0.path] }
        }
    }
}

extension ReloadableSettings {
    init(tuning configuration: PoiseConfiguration) { self = FlightCoreFactory.tuning(configuration) }
}
