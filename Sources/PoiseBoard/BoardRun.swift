#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#endif
import PoiseControl
import PoiseDeviceSettings
import PoiseDeviceTools
import PoiseFlightCore
import PoiseFlightSettings
import PoiseFusion
import PoiseHAL
import PoiseLinux
import PoiseLive
import PoiseLoop
import PoiseOutputs
import PoiseReplayCore
import PoiseReporting
import PoiseRig
import PoiseSchedules
import PoiseTelemetry
import PoiseThreads
import PoiseTraces

/// `poise-board run`: the loop `poise run` runs on a real rig, composed from the compiled
/// configuration instead of the YAML — the same rig builder (PoiseRig), tick, loop, reporter
/// and recorder, telemetry and ground link (PoiseLive's parts), so a recording it makes
/// replays in `poise replay` byte for byte. The state directory's stored parameters apply over
/// the compiled file (BoardParameters.swift); SIGHUP reloads both.
enum BoardRun {
    static func run(_ request: BoardCommand.RunRequest) -> Int32 {
        let processStart = monotonicNanoseconds()
        // Before any other thread exists: the signal thread takes SIGINT/TERM/HUP with sigwait.
        StopSignals.blockInProcess()
        let compiled: FlightSettings
        do { compiled = try CompiledSettingsFile.settings(path: request.config) } catch {
            BoardCommand.printError("poise-board: " + error.description)
            return 1
        }
        // The parameters stored on the board (MAV_CMD_PREFLIGHT_STORAGE), over the compiled file's
        // values; not for `record`, as `poise record` takes none (a recording of the file's settings).
        let overlayPath = request.sensorOnly ? nil : BoardParameters.overlayPath(stateDirectory: request.stateDirectory)
        let loaded: BoardParameters.Loaded
        do throws(StoredParametersError) { loaded = try BoardParameters.load(compiled, overlayPath: overlayPath) } catch {
            BoardCommand.printError("poise-board: " + error.description + "\npoise-board: " + (overlayPath ?? "") + ": stored parameters "
                                    + "refused; fix or remove the file, or merge it on the host (poise merge-parameters)")
            return 1
        }
        if let stored = loaded.stored, let overlayPath {
            printToStandardError("poise-board: " + request.config + ": stored parameters applied from " + overlayPath + ": " + stored.summary + "\n")
        }
        let settings = loaded.settings
        var work = BoardRunWork(request: request, settings: settings, processStart: processStart, overlayPath: overlayPath,
                                parameters: BoardParameterState(loaded))
        let outcome: BoardRunOutcome
        do throws(BoardRunError) { outcome = try settings.filter.run(&work) } catch {
            BoardCommand.printError("poise-board: " + error.message)
            return 1
        }
        return outcome.finish(request)
    }
}

/// Why a run could not start, or what went wrong in it.
struct BoardRunError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// The run's result, reported as `poise run` reports it.
struct BoardRunOutcome {
    var statistics: RunStatistics
    var seconds: Double
    var rateHz: Double
    var signal: Int32
    var problems: [String]
    var failsafe: FailsafeNote?

    func finish(_ request: BoardCommand.RunRequest) -> Int32 {
        if !request.quiet {
            let how = signal != 0 ? "stopped by " + (signal == SIGINT ? "SIGINT" : "SIGTERM") : "finished"
            printToStandardError("poise-board: " + how + " after " + ReportFormat.fixed(seconds, 2) + " s; outputs safe\n"
                                 + statistics.summary() + "\n")
            if let failsafe { printToStandardError("poise-board: " + failsafe.text + "\n") }
        }
        var problems = problems
        if let path = request.statsJSON {
            do throws(TraceError) {
                let file = try OutputFile(path: path)
                try file.finish(writing: statistics.json(rateHz: rateHz, seconds: seconds))
            } catch {
                problems.append(error.description)
            }
        }
        for problem in problems { BoardCommand.printError("poise-board: " + problem) }
        return problems.isEmpty ? 0 : 1
    }
}

/// The composition, specialised for the compiled file's filter.
struct BoardRunWork: FilterKindWork {
    let request: BoardCommand.RunRequest
    let settings: FlightSettings
    let processStart: Int64
    let overlayPath: String?
    let parameters: BoardParameterState

    mutating func run<Filter: AttitudeFilter>(_ filter: inout Filter) throws(BoardRunError) -> BoardRunOutcome {
        let rig = settings.rig
        var outputs = settings.outputBank
        var core = settings.core(filter: filter)
        // `record`: the sensor only, as `poise record` runs it.
        if request.sensorOnly {
            outputs.channels = []
            core.controller = .none
        }
        let quiet = request.quiet
        if !quiet {
            printToStandardError("poise-board: " + request.config + ": " + banner + "; Ctrl-C stops\n")
        }
        let setpoints = try BoardSchedules.setpoints(settings, compiledFile: request.config)
        let drive = try BoardSchedules.drive(settings, compiledFile: request.config)
        // The recording, before anything is opened: a path that cannot be written fails first.
        let ring = TickRecordRing(capacity: rig.recording.ringCapacity)
        var writer: TraceWriter? = nil
        var columns: RecordingColumns? = nil
        if let path = request.record {
            let recorded = RecordingColumns(channels: outputs.channels, magnetometer: rig.sensor.magnetometerMode != .powerDown,
                                            truth: false, pilot: pilotColumns)
            let lines = request.sensorOnly ? RecordingFile.sensorOnlyLines(settings.recordedConfiguration) : settings.recordedConfiguration
            let metadata = RecordingFile.metadata(source: "poise-run", rateHz: settings.loopRateHz, configurationLines: lines)
            do throws(TraceError) {
                writer = try RecordingFile.open(path: path, columns: recorded, metadata: metadata, overwrite: request.overwrite,
                                                syncInterval: rig.recording.syncInterval)
            } catch {
                throw BoardRunError(error.description)
            }
            columns = recorded
        }
        let statisticsFile: OutputFile?
        do throws(TraceError) { statisticsFile = try request.statsJSON.map { path throws(TraceError) in try OutputFile(path: path) } } catch {
            throw BoardRunError(error.description)
        }
        _ = consume statisticsFile
        // The rig: bus, driver, outputs at their safe values, switch and encoders.
        let log = DriverLog(minimumLevel: quiet ? .warning : .info) { _, message in
            printToStandardError("poise-board: sensor: " + message + "\n")
        }
        let parts: LinuxRigParts
        do throws(RigError) {
            parts = try LinuxRigParts(rig, calibration: settings.calibration, outputs: outputs, log: log,
                                      warn: { printToStandardError("poise-board: " + $0 + "\n") })
        } catch {
            throw BoardRunError(error.description)
        }
        defer { parts.stop() }
        var reporterSettings = TickReporter.Settings(live: settings, channels: outputs.channels, recordingName: request.record ?? "",
                                                     quiet: quiet, statusLine: isatty(2) == 1,
                                                     notifier: ServiceNotifier(environment: ServiceNotifier.processEnvironment()))
        reporterSettings.programName = "poise-board"
        let reporter = TickReporter(ring: ring, settings: reporterSettings, recording: writer.take(), columns: columns)
        // Telemetry and the ground station's link over it.
        let address: TelemetryAddress?
        do throws(TelemetryError) {
            address = try (request.telemetry ?? rig.telemetryAddress).map { text throws(TelemetryError) in try TelemetryAddress(parsing: text) }
        } catch {
            throw BoardRunError((request.telemetry != nil ? "--telemetry: " : "telemetry.address: ") + error.description)
        }
        let link: TelemetryLink?
        do throws(TelemetryError) {
            link = try TelemetryLink.open(settings: rig.telemetry, address: address, configurationFile: request.config,
                                          stateDirectory: request.stateDirectory,
                                          ringCapacity: BoardRings.telemetryCapacity(rateHz: settings.loopRateHz)) { warning in
                if !quiet { printToStandardError("poise-board: warning: " + warning + "\n") }
            }
        } catch {
            throw BoardRunError(error.description)
        }
        let signals = StopSignals()
        let tuning = SettingsMailbox<ReloadableSettings>()
        let latest = TripleBuffer<TickRecord>(initial: TickRecord())
        let reload = BoardReload(path: request.config, running: settings, mailbox: tuning, latest: latest, overlayPath: overlayPath,
                                 parameters: parameters)
        signals.start(onReload: { reload.reload() })
        let pilot = ManualControlMailbox()
        var receiver: TelemetryReceiver? = nil
        if let link {
            let sender = link.sender
            let station = BoardGroundStation(arming: CommandArming(safety: settings.safety, pilot: pilot,
                                                                   newestRecord: { sender.newestRecord }), reload: reload)
            let view = TelemetryReceiver.TelemetrySettingsView(systemID: rig.telemetry.systemID, componentID: rig.telemetry.componentID,
                                                               acceptCommands: rig.telemetry.acceptCommands,
                                                               maximumRate: rig.telemetry.maximumIncomingRate)
            receiver = TelemetryReceiver(sender: sender, station: station, settings: view, key: link.key, store: link.store)
            receiver?.log = { printToStandardError("poise-board: " + $0 + "\n") }
            reload.lock.withLock { _ in reload.receiver = receiver }
        }
        // The pilot's gamepad: read on its own thread into the same mailbox.
        let gamepad: GamepadReader?
        do throws(GamepadError) {
            gamepad = try GamepadLink.start(rig.gamepad, armSource: settings.safety.armSource, mailbox: pilot,
                                            program: "poise-board", quiet: quiet)
        } catch {
            throw BoardRunError(error.description)
        }
        defer { gamepad?.stop() }
        var links = LoopLinks(signals: signals, tuning: tuning, ring: ring, telemetry: link?.sender,
                              latest: latest, armSwitch: parts.armSwitch?.state, setpoints: setpoints,
                              pilot: receiver == nil && gamepad == nil ? nil : pilot,
                              drive: drive, encoders: parts.encoders?.state)
        links.follow(rig)
        var loop = LiveLoop(board: parts.board, core: core, links: links, settings: LoopSettings(live: settings, duration: request.duration))
        reporter.start()
        link?.sender.start()
        receiver?.start()
        loop.run(processStart: processStart) { warnings in
            if !quiet { for warning in warnings { printToStandardError("poise-board: warning: " + warning + "\n") } }
        }
        var problems: [String] = []
        do throws(TraceError) { try reporter.finish() } catch { problems.append(error.description) }
        if let error = reporter.recordingError { problems.append(error) }
        receiver?.stop()
        link?.sender.stop()
        for error in loop.board.release() { problems.append(error.description) }
        return BoardRunOutcome(statistics: loop.statistics, seconds: loop.statistics.seconds, rateHz: settings.loopRateHz,
                               signal: signals.signal, problems: problems, failsafe: reporter.failsafe)
    }

    /// The setpoint columns of a recording whose ticks may follow a pilot (a telemetry link's
    /// MANUAL_CONTROL or a gamepad), by the controller's kind.
    var pilotColumns: RecordingColumns.PilotColumns {
        guard !request.sensorOnly, request.telemetry != nil || settings.rig.telemetryAddress != nil || settings.rig.gamepad.enabled else { return .none }
        switch settings.controller {
        case .none: return .none
        case .balance: return .drive
        case .quad: return .quad
        }
    }

    /// "balance controller, poise filter, 1000 Hz on /dev/i2c-1".
    var banner: String {
        var controller: String
        switch settings.controller {
        case .none: controller = "no controller"
        case .balance: controller = "balance controller"
        case .quad: controller = "quadrotor controller"
        }
        if request.sensorOnly { controller = "no controller" }
        return controller + ", " + settings.filter.kind.rawValue + " filter, " + ReportFormat.rate(settings.loopRateHz) + " Hz on "
            + settings.rig.i2cBus
    }
}
