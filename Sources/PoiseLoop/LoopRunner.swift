import Logging
import PoiseConfig
import PoiseControl
import PoiseFusion
import PoiseLinux
import PoiseOutputs
import PoiseReplay
import PoiseSensors
import PoiseSettings
import PoiseSimulation
import PoiseTelemetry
import PoiseTick
import PoiseTraces
import PoiseMath

/// Builds and runs the loop a configuration describes: the filter it names (specialised,
/// not an existential), the board (`linux`, or `sim` with the plant that fits the
/// controller), the recorder, telemetry and SIGHUP reloads. `poise run`, `poise record` and
/// ``MotionManager`` all start here.
public enum LoopRunner {
    public static func run(_ configuration: PoiseConfiguration, options: RunOptions) throws(RunError) -> RunResult {
        var work = LoopWork(configuration: configuration, options: options)
        do {
            return try FilterChoice(configuration: configuration).run(&work)
        } catch let error as RunError {
            throw error
        } catch {
            throw RunError("\(error)")
        }
    }
}

struct LoopWork: FilterWork {
    let configuration: PoiseConfiguration
    let options: RunOptions

    mutating func run<Filter: AttitudeFilter>(_ filter: inout Filter) throws -> RunResult {
        var outputs = OutputBankSettings(configuration: configuration)
        if options.sensorOnly { outputs.channels = [] }
        var core = CoreConfiguration.core(configuration, filter: filter)
        if options.sensorOnly { core.controller = .none }
        let sensorSettings = MPU9250Settings(configuration: configuration)
        var logger = Logger(label: "poise.sensors")
        if options.quiet { logger.logLevel = .warning }
        switch configuration.board.kind {
        case .linux:
            if options.virtualDuration != nil {
                throw RunError("simulated time needs the simulated board: set `board.kind: sim` (or use `poise run` on the board)")
            }
            let bus: LinuxI2CBus
            do { bus = try LinuxI2CBus(path: configuration.board.i2cBus) } catch {
                throw RunError("cannot open \(configuration.board.i2cBus): \(error) (is I²C enabled? see docs/deploy.md; `board.kind: sim` runs without hardware)")
            }
            var driver = MPU9250(bus: bus, settings: sensorSettings, logger: logger)
            driver.calibration = SensorCalibration(configuration: configuration)
            let board: LinuxBoard
            do { board = try LinuxBoard(driver: driver, outputs: outputs, start: monotonicNanoseconds()) } catch {
                throw RunError(error.description)
            }
            return try start(board: board, core: core, outputs: outputs, truth: false)
        case .sim:
            let driver = SimulatedRig.driver(configuration, quiet: options.quiet)
            switch SimulatedRig.plant(configuration) {
            case .balancingRobot:
                return try start(board: simulatedBoard(driver, outputs, SimulatedRig.balancingRobotWorld(configuration)),
                                 core: core, outputs: outputs, truth: true)
            case .quadrotor:
                return try start(board: simulatedBoard(driver, outputs, SimulatedRig.quadrotorWorld(configuration)),
                                 core: core, outputs: outputs, truth: true)
            case .motion, .auto:
                return try start(board: simulatedBoard(driver, outputs, SimulatedRig.scriptedWorld(configuration)),
                                 core: core, outputs: outputs, truth: true)
            }
        }
    }

    func simulatedBoard<World: SimulatedWorld>(_ driver: MPU9250<SimulatedI2CBus<HeldMotion>>, _ outputs: OutputBankSettings,
                                               _ world: World) throws -> SimulatedBoard<World> {
        do { return try SimulatedBoard(driver: driver, outputs: outputs, world: world) } catch {
            throw RunError(error.description)
        }
    }

    func start<Board: BoardBackend, Filter: AttitudeFilter>(board: Board, core: FlightCore<Filter>,
                                                            outputs: OutputBankSettings, truth: Bool) throws -> RunResult {
        let loopConfig = configuration.loop
        // Setpoints.
        var setpoints = SetpointSchedule(throttle: Float(configuration.controller.quad.throttle))
        let file = configuration.controller.quad.setpointFile
        if !file.isEmpty, configuration.controller.kind == .quadX || configuration.controller.kind == .quadPlus {
            var folder = options.configPath.map { p in p.contains("/") ? String(p[..<p.lastIndex(of: "/")!]) + "/" : "" } ?? ""
            if file.hasPrefix("/") { folder = "" }
            let path = folder + file
            let text: String
            do { text = try PoiseConfiguration.readText(path: path) } catch { throw RunError(error.description) }
            do { setpoints = try SetpointSchedule(path: path, text: text) } catch { throw RunError(error.description) }
        }
        // Recorder and status ring.
        let ring = TickRecordRing(capacity: configuration.recording.ringCapacity)
        var writer: TraceWriter? = nil
        var columns: RecordingColumns? = nil
        if let path = options.recordPath {
            guard let format = TraceWriter.format(forPath: path) else {
                throw RunError("\(path): the recording needs a .csv or .ptrace extension")
            }
            let cols = RecordingColumns(channels: outputs.channels, magnetometer: configuration.sensor.magnetometer, truth: truth)
            var metadata = TraceMetadata()
            metadata.set("source", truth ? "poise-run-sim" : "poise-run")
            metadata.set("rate_hz", String(loopConfig.rateHz))
            metadata.set(SensorCalibration.traceMetadataKey, "yes")
            metadata.set("frame", "enu")
            // How to replay it: the effective configuration (a sensor-only run has no
            // controller and no outputs).
            var effective = configuration
            if options.sensorOnly {
                effective.values["controller.kind"] = .string("none")
                effective.values["outputs.channels"] = .list([])
            }
            EmbeddedConfiguration.add(effective, to: &metadata)
            // Live: under its own name from the first record (docs/robustness.md).
            do {
                writer = try TraceWriter(path: path, format: format, metadata: metadata, columns: cols.names,
                                         mode: .live(overwrite: options.overwrite))
            } catch {
                throw RunError(error.description)
            }
            // The header (and the configuration in it) reaches the disk before the first tick.
            writer!.flush()
            if configuration.recording.syncInterval > 0 { _ = writer!.sync() }
            columns = cols
        }
        if let duration = options.virtualDuration {
            return try runVirtual(board: board, core: core, outputs: outputs, writer: writer.take(), columns: columns,
                                  setpoints: setpoints, duration: duration)
        }
        var reporterSettings = TickReporter.Settings()
        reporterSettings.flushInterval = configuration.recording.flushInterval
        reporterSettings.syncInterval = configuration.recording.syncInterval
        reporterSettings.recordingName = options.recordPath ?? ""
        reporterSettings.sensor = MPU9250Settings(configuration: configuration)
        reporterSettings.logInterval = options.quiet ? 0 : loopConfig.logInterval
        reporterSettings.statusLine = options.statusLine && !options.quiet
        reporterSettings.channelNames = outputs.channels.map(\.name)
        reporterSettings.channelIsPulse = outputs.channels.map { if case .gpio = $0.hardware { false } else { true } }
        let reporter = TickReporter(ring: ring, settings: reporterSettings, recording: writer.take(), columns: columns)
        // Telemetry.
        var telemetry: TelemetrySender? = nil
        if let address = try options.telemetry ?? configuration.telemetry.address.map({ try TelemetryAddress(parsing: $0) }) {
            telemetry = try TelemetrySender(address: address, settings: TelemetrySettings(configuration: configuration))
        }
        // SIGHUP: parse and validate off the tick, hand over between ticks.
        let mailbox = SettingsMailbox<CoreTuning>()
        let running = configuration
        let path = options.configPath
        if options.handlesSignals { options.signals.start(onReload: {
            guard let path else {
                printToStandardError("poise: SIGHUP: running the built-in configuration, nothing to reload\n")
                return
            }
            Self.reload(path: path, running: running, mailbox: mailbox)
        }) }
        let links = LoopLinks(signals: options.signals, tuning: mailbox, ring: ring, telemetry: telemetry,
                              latest: options.latest, setpoints: setpoints)
        let settings = LoopSettings(rateHz: loopConfig.rateHz, duration: options.duration,
                                    realtime: RealtimeSetup(priority: loopConfig.realtimePriority, cpu: loopConfig.cpu,
                                                            lockMemory: loopConfig.lockMemory))
        var loop = LiveLoop(board: board, core: core, links: links, settings: settings)
        reporter.start()
        telemetry?.start()
        let quiet = options.quiet
        loop.run(processStart: options.processStart) { warnings in
            if !quiet { for w in warnings { printToStandardError("poise: warning: \(w)\n") } }
        }
        var problems: [String] = []
        do { try reporter.finish() } catch { problems.append(error.description) }
        if let e = reporter.recordingError { problems.append(e) }
        telemetry?.stop()
        let seconds = loop.statistics.seconds
        for e in loop.board.release() { problems.append(e.description) }
        return RunResult(statistics: loop.statistics, seconds: seconds, rateHz: loopConfig.rateHz,
                         signal: options.signals.signal, problems: problems, report: nil)
    }

    /// `poise simulate`: the same ticks in simulated time, recording written as they come.
    func runVirtual<Board: BoardBackend, Filter: AttitudeFilter>(
        board: Board, core: FlightCore<Filter>, outputs: OutputBankSettings, writer: consuming TraceWriter?,
        columns: RecordingColumns?, setpoints: SetpointSchedule, duration: Double
    ) throws -> RunResult {
        let rate = configuration.loop.rateHz
        // SIGINT/SIGTERM end the run at the next tick, so the recording ends on a whole record.
        if options.handlesSignals { options.signals.start(onReload: {}) }
        let links = LoopLinks(signals: options.signals, setpoints: setpoints)
        var loop = LiveLoop(board: board, core: core, links: links, settings: LoopSettings(rateHz: rate))
        let isPulse = outputs.channels.map { if case .gpio = $0.hardware { false } else { true } }
        var report = SimulationReport(channelNames: outputs.channels.map(\.name), expectedTicks: Int(duration * rate))
        var out = writer
        loop.runVirtual(duration: duration) { _, record in
            if let columns { columns.write(record, to: &out!) }
            report.add(record, isPulse: isPulse)
            if record.eventReason != .none, !options.quiet {
                let reason = record.eventReason, state = record.armState
                printToStandardError("poise: \(record.time) s: \(state.name) — \(reason.text)\n")
            }
        }
        var problems: [String] = []
        for e in loop.board.release() { problems.append(e.description) }
        if var w = out.take() {
            do { try w.close() } catch { problems.append(error.description) }
        }
        return RunResult(statistics: loop.statistics, seconds: Double(loop.statistics.ticks) / rate, rateHz: rate,
                         signal: options.signals.signal, problems: problems, report: report)
    }

    /// SIGHUP: load and check the file again; post its tuning, or log every problem and keep
    /// the running values.
    static func reload(path: String, running: PoiseConfiguration, mailbox: SettingsMailbox<CoreTuning>) {
        let fresh: PoiseConfiguration
        do { fresh = try PoiseConfiguration.load(path: path) } catch {
            printToStandardError("poise: SIGHUP: \(path) not applied, the old values stay:\n\(error.description)\n")
            return
        }
        if fresh.controller.kind != running.controller.kind {
            printToStandardError("poise: SIGHUP: \(path): controller.kind changed (\(running.controller.kind.rawValue) → \(fresh.controller.kind.rawValue)); restart to change it. Not applied.\n")
            return
        }
        let old = OutputBankSettings(configuration: running).channels.map(\.hardware)
        let new = OutputBankSettings(configuration: fresh).channels.map(\.hardware)
        if old != new {
            printToStandardError("poise: SIGHUP: \(path): output channels' hardware (kind, chip, line, channel) changed; restart to change it. Not applied.\n")
            return
        }
        if mailbox.post(CoreTuning(tuning: fresh)) {
            printToStandardError("poise: SIGHUP: \(path) applied (gains, limits, output mappings)\n")
        }
    }
}

extension CoreTuning {
    init(tuning configuration: PoiseConfiguration) { self = CoreConfiguration.tuning(configuration) }
}
