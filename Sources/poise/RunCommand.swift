import ArgumentParser
import Foundation
import PoiseConfig
import PoiseLoop
import PoiseTelemetry
import PoiseTick
import PoiseTraces

/// `poise run`: the product — the fixed-rate loop on the board or in the simulation.
struct RunCommand: ParsableCommand {
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
              sudo poise run --config /etc/poise.yaml     # on the board
            """)

    @Option(help: "Configuration file (default: the built-in simulated balancing robot).")
    var config: String?

    @Option(help: "Stop cleanly after this many seconds.")
    var duration: Double?

    @Option(name: .customLong("stats-json"), help: "Write the loop statistics to this file as JSON at the end.")
    var statsJSON: String?

    @Option(help: "Record every sample, the estimate and every output to this trace (.csv or .ptrace), written as it happens.")
    var record: String?

    @Flag(help: "Replace an existing file at --record (a recording never replaces one otherwise).")
    var overwrite = false

    @Option(help: "Send MAVLink telemetry to HOST:PORT (default: the config's telemetry.address).")
    var telemetry: String?

    @Flag(help: "Print only errors and warnings (no status line, no periodic log, no summary).")
    var quiet = false

    func validate() throws {
        if let duration, !(duration.isFinite && duration > 0) { throw ValidationError("--duration must be a positive number of seconds") }
    }

    func run() throws {
        try RunCommand.start(config: config, duration: duration, statsJSON: statsJSON, record: record,
                             overwrite: overwrite, telemetry: telemetry, quiet: quiet, sensorOnly: false)
    }

    static func start(config: String?, duration: Double?, statsJSON: String?, record: String?, overwrite: Bool,
                      telemetry: String?, quiet: Bool, sensorOnly: Bool) throws {
        let processStart = monotonicNanoseconds()
        // Before any other thread exists: the signal thread takes SIGINT/TERM/HUP with sigwait.
        StopSignals.blockInProcess()
        let configuration = try loopConfiguration(config)
        var options = RunOptions(signals: StopSignals(), processStart: processStart)
        options.duration = duration
        options.recordPath = record
        options.overwrite = overwrite
        options.sensorOnly = sensorOnly
        options.quiet = quiet
        options.statusLine = isatty(2) == 1
        options.configPath = config
        if let telemetry {
            do { options.telemetry = try TelemetryAddress(parsing: telemetry) } catch {
                printError("poise: --telemetry: \(error)")
                throw ExitCode(1)
            }
        }
        if !quiet {
            let board = configuration.board.kind == .sim ? "simulated board" : configuration.board.i2cBus
            printError("poise: \(config ?? BuiltInConfiguration.name): \(configuration.controller.kind.rawValue) controller, \(configuration.filter.name.rawValue) filter, \(configuration.loop.rateHz) Hz on the \(board); Ctrl-C stops")
        }
        let result: RunResult
        do { result = try LoopRunner.run(configuration, options: options) } catch {
            printError("poise: \(error.description)")
            throw ExitCode(1)
        }
        if !quiet {
            let how = result.signal != 0 ? "stopped by \(result.signal == SIGINT ? "SIGINT" : "SIGTERM")" : "finished"
            printError("poise: \(how) after \(String(format: "%.2f", result.seconds)) s; outputs safe\n" + result.statistics.summary())
        }
        var failed = false
        for problem in result.problems {
            printError("poise: \(problem)")
            failed = true
        }
        if let statsJSON {
            do { try OutputFile.write(result.statistics.json(rateHz: result.rateHz, seconds: result.seconds), to: statsJSON) } catch {
                printError("poise: \(error.description)")
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }
}

/// The configuration of `run`, `record` and `simulate`: the file, or the built-in simulated
/// balancing robot; problems printed with their positions (exit 1).
func loopConfiguration(_ path: String?) throws -> PoiseConfiguration {
    do {
        if let path { return try PoiseConfiguration.load(path: path) }
        return try PoiseConfiguration.parse(text: BuiltInConfiguration.text, file: BuiltInConfiguration.name)
    } catch {
        printError(error.description)
        throw ExitCode(1)
    }
}

/// `poise record`: the loop with the sensor only — every sample to a trace.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record the sensor at the loop rate to a trace (no controller, no outputs).",
        discussion: """
            Runs the same fixed-rate loop as `poise run` with the controller and the outputs \
            left out: every sample (calibrated, body frame) and the estimate go to the trace \
            from a writer thread, flushed every `recording.flush_interval`. SIGINT/SIGTERM \
            close the file cleanly; it then replays with `poise replay`.

            Examples:
              poise record bench.ptrace --config /etc/poise.yaml --duration 60
              poise record still.csv --duration 30        # the simulated board
            """)

    @Argument(help: "The trace to write (.csv or .ptrace).")
    var trace: String

    @Option(help: "Configuration file (default: the built-in simulated board).")
    var config: String?

    @Option(help: "Stop cleanly after this many seconds.")
    var duration: Double?

    @Option(name: .customLong("stats-json"), help: "Write the loop statistics to this file as JSON at the end.")
    var statsJSON: String?

    @Flag(help: "Replace an existing file at TRACE (a recording never replaces one otherwise).")
    var overwrite = false

    @Flag(help: "Print only errors and warnings.")
    var quiet = false

    func run() throws {
        try RunCommand.start(config: config, duration: duration, statsJSON: statsJSON, record: trace,
                             overwrite: overwrite, telemetry: nil, quiet: quiet, sensorOnly: true)
    }
}
