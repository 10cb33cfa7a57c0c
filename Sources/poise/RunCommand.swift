import ArgumentParser
import Foundation
import PoiseConfig
import PoiseFlightCore
import PoiseFlightSettings
import PoiseLoop
import PoiseRun
import PoiseTelemetry
import PoiseTraces

/// `poise run`: the product — the fixed-rate loop on the board or in the simulation.
struct RunCommand: PoiseCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the fixed-rate loop: read the sensor, fuse, control, drive the outputs.",
        discussion: """
            Each tick, at `loop.rate_hz` on absolute deadlines: read the MPU-9250, update the \
            filter (dt from the sample times), run the controller and the arming supervisor, \
            write the outputs, and hand one record to the recorder and telemetry threads. \
            Outputs start safe and follow the controller only once armed: level within \
            `safety.arm_tilt_deg`, sensor healthy and filter initialised for \
            `safety.arm_hold_s`. Any fault (tilt beyond `safety.max_tilt_deg`, sensor lost, \
            non-finite values, overruns, a failed output write, SIGINT/SIGTERM) drives every \
            output safe within that tick; each transition is printed once with its reason.

            Without --config it runs the built-in configs/sim-balancing-robot.yaml: the \
            simulated board with a balancing robot the outputs drive. With `board.kind: sim` \
            any configuration runs against the simulation (the plant follows \
            `simulation.plant`).

            SIGINT or SIGTERM stops it cleanly (outputs safe, recording closed, statistics \
            printed, exit 0). SIGHUP reloads gains, limits and output mappings from the file \
            without stopping; a file with problems is not applied and each problem is printed \
            with its line.

            Examples:
              poise run                                   # the simulated robot
              poise run --duration 10 --stats-json s.json # 10 s, statistics as JSON
              poise run --config configs/sim-quad-x.yaml --record run.ptrace
              sudo poise run --config /etc/poise/poise.yaml     # on the board
            """)

    @OptionGroup var loop: LoopOptions

    @OptionGroup var statistics: StatisticsOption

    @Option(help: "Record every sample, the estimate and every output to this trace (.csv or .ptrace), written as it happens.")
    var record: String?

    @Flag(help: "Replace an existing file at --record (a recording never replaces one otherwise).")
    var overwrite = false

    @Option(help: "Send MAVLink telemetry to HOST:PORT (default: the config's telemetry.address).")
    var telemetry: String?

    @Option(help: "Keep a signed link's signing timestamps and the stored parameters here across runs (default: $STATE_DIRECTORY, else /var/lib/poise if it exists).")
    var stateDir: String?

    func execute() throws {
        try RunCommand.start(loop, statsJSON: statistics.statsJSON, record: record, overwrite: overwrite,
                             telemetry: telemetry, sensorOnly: false, stateDirectory: stateDir)
    }

    static func start(_ loop: LoopOptions, statsJSON: String?, record: String?, overwrite: Bool, telemetry: String?,
                      sensorOnly: Bool, stateDirectory: String? = nil) throws {
        let processStart = monotonicNanoseconds()
        // Before any other thread exists: the signal thread takes SIGINT/TERM/HUP with sigwait.
        StopSignals.blockInProcess()
        var configuration = try loopConfiguration(loop.config)
        // The parameters stored on the board (MAV_CMD_PREFLIGHT_STORAGE), over the file's values.
        if !sensorOnly, let path = loop.config, let directory = MAVLinkSigningStore.directory(option: stateDirectory) {
            let overlay = ParameterOverlayFile.path(directory: directory)
            do {
                let applied = try ParameterOverlayFile.apply(overlay, to: configuration)
                configuration = applied.configuration
                if let stored = applied.overlay {
                    printError("poise: \(path): stored parameters applied from \(overlay): \(stored.summary)")
                }
            } catch {
                throw CLIError.asIs("\(error.description)\npoise: \(overlay): stored parameters refused; fix or remove the file, or merge it (poise merge-parameters)")
            }
        }
        var options = RunOptions(signals: StopSignals(), processStart: processStart)
        options.duration = loop.duration
        options.recordPath = record
        options.overwrite = overwrite
        options.sensorOnly = sensorOnly
        options.quiet = loop.quiet
        options.statusLine = isatty(2) == 1
        options.configPath = loop.config
        options.notifySystemd = true
        options.stateDirectory = stateDirectory
        if let telemetry {
            do { options.telemetry = try TelemetryAddress(parsing: telemetry) } catch {
                throw CLIError("--telemetry: \(error)")
            }
        }
        // Opened now, as the recording is: a path that cannot be written fails before the run.
        let statisticsFile = try statsJSON.map { path throws(TraceError) in try OutputFile(path: path) }
        if !loop.quiet {
            printError("poise: \(loop.config ?? BuiltInConfiguration.name): \(banner(configuration, sensorOnly: sensorOnly)); Ctrl-C stops")
        }
        let result: RunResult
        do { result = try LoopRunner.run(configuration, options: options) } catch {
            throw CLIError(error.description)
        }
        if !loop.quiet {
            let how = result.signal != 0 ? "stopped by \(result.signal == SIGINT ? "SIGINT" : "SIGTERM")" : "finished"
            printError("poise: \(how) after \(String(format: "%.2f", result.seconds)) s; outputs safe\n" + result.statistics.summary())
            if let failsafe = result.failsafe { printError("poise: \(failsafe.text)") }
        }
        var problems = result.problems
        if let statisticsFile {
            do { try statisticsFile.finish(writing: result.statistics.json(rateHz: result.rateHz, seconds: result.seconds)) } catch {
                problems.append(error.description)
            }
        }
        if !problems.isEmpty { throw CLIError(problems: problems) }
    }

    /// What runs where: "balance controller, poise filter, 1000 Hz on the simulated board".
    static func banner(_ configuration: PoiseConfiguration, sensorOnly: Bool) -> String {
        let controller = sensorOnly || configuration.controller.kind == .none
            ? "no controller" : "\(configuration.controller.kind.rawValue) controller"
        let board = configuration.board.kind == .sim ? "the simulated board" : configuration.board.i2cBus
        return "\(controller), \(configuration.filter.name.rawValue) filter, \(SensorCLI.rate(configuration.loop.rateHz)) Hz on \(board)"
    }
}

/// `--stats-json`, which `run` and `record` share.
struct StatisticsOption: ParsableArguments {
    @Option(name: .customLong("stats-json"), help: "Write the loop statistics to this file as JSON at the end.")
    var statsJSON: String?
}

/// The configuration of `run`, `record` and `simulate`: the file, or the built-in simulated
/// balancing robot; problems printed with their positions (exit 1).
func loopConfiguration(_ path: String?) throws -> PoiseConfiguration {
    do {
        if let path { return try PoiseConfiguration.load(path: path) }
        return try PoiseConfiguration.parse(text: BuiltInConfiguration.text, file: BuiltInConfiguration.name)
    } catch {
        throw CLIError.asIs(error.description)
    }
}

/// `poise record`: the loop with the sensor only — every sample to a trace.
struct RecordCommand: PoiseCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record the sensor at the loop rate to a trace (no controller, no outputs).",
        discussion: """
            Runs the same fixed-rate loop as `poise run` with the controller and the outputs \
            left out: every sample (calibrated, body frame) and the estimate go to the trace \
            from a writer thread, flushed every `recording.flush_interval`. SIGINT/SIGTERM \
            close the file cleanly; it then replays with `poise replay`.

            Examples:
              poise record bench.ptrace --config /etc/poise/poise.yaml --duration 60
              poise record still.csv --duration 30        # the simulated board
            """)

    @Argument(help: "The trace to write (.csv or .ptrace).")
    var trace: String

    @OptionGroup var loop: LoopOptions

    @OptionGroup var statistics: StatisticsOption

    @Flag(help: "Replace an existing file at TRACE (a recording never replaces one otherwise).")
    var overwrite = false

    func execute() throws {
        try RunCommand.start(loop, statsJSON: statistics.statsJSON, record: trace, overwrite: overwrite, telemetry: nil,
                             sensorOnly: true)
    }
}
