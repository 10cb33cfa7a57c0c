#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PoiseTraces

/// The command line of `poise-board`, for its thin `main`: parses the arguments, runs the
/// command and settles its outcome as `poise` does — trace warnings first, then an
/// interruption (exit 128 + signal), then an error (`poise-board: message`, exit 1) or a
/// usage error (the message and the usage, exit 64).
public enum BoardCommand {
    public static let usage = """
        usage: poise-board COMMAND [OPTIONS]

          run --config COMPILED [--record FILE [--overwrite]] [--duration S] [--telemetry HOST:PORT]
              [--state-dir DIR] [--stats-json FILE] [--quiet]
                         Run the loop on the board's hardware: the MPU-9250 over i2c-dev, the outputs,
                         every safety rule, recording, telemetry and the ground link, SIGHUP reloads.
          record --config COMPILED OUT [--duration S] [--overwrite] [--stats-json FILE] [--quiet]
                         Record the sensor at the loop rate to OUT (.ptrace binary, .csv text): `poise record`'s
                         loop and file (no controller, no outputs); SIGINT/SIGTERM close it cleanly.
          calibrate gyro|accel|mag --config COMPILED [--seconds S] [--yes]
                         Guided calibration on the board (gyro: keep it still; accel: six faces, any order;
                         mag: turn it); prints the sensor.calibration YAML to paste into the host's file.
          safe --config COMPILED
                         Drive every configured output to its safe value and exit (the unit's ExecStopPost).
          probe [--config COMPILED] [--bus DEVICE] [--address ADDR] [--samples N]
                         Scan the I²C bus, name the IMU and magnetometer, print samples in SI units.
          replay TRACE [--config COMPILED] [-o OUT] [--quiet]
                         Run a trace (CSV or binary, - for standard input) and write byte for byte what
                         `poise replay TRACE` writes; a `poise run` recording goes through the loop's
                         whole tick with its compiled configuration.

          COMPILED is a configuration compiled on the host: `poise compile robot.yaml -o robot.pcfg`.
        """

    /// What the arguments ask for.
    enum Parsed: Equatable {
        case help
        case replay(trace: String, output: String, config: String? = nil)
        case probe(ProbeRequest)
        case safe(config: String)
        case run(RunRequest)
        case calibrate(CalibrateRequest)
    }

    /// `calibrate`'s options.
    struct CalibrateRequest: Equatable {
        var sensor: String
        var config: String
        var seconds = 30.0
        var yes = false
    }

    /// `probe`'s options: the compiled file's bus and sensor settings, the flags over them.
    struct ProbeRequest: Equatable {
        var config: String? = nil
        var bus: String? = nil
        var address: UInt8? = nil
        var samples = 5
    }

    /// `run`'s options.
    struct RunRequest: Equatable {
        var config: String
        var record: String? = nil
        var overwrite = false
        var duration: Double? = nil
        var telemetry: String? = nil
        var stateDirectory: String? = nil
        var statsJSON: String? = nil
        var quiet = false
        /// `record`: the sensor only, as `poise record` (no controller, no outputs).
        var sensorOnly = false
    }

    /// A usage error's message.
    struct UsageError: Error, Equatable { var message: String }

    /// Parses the arguments after the program name.
    static func parse(_ arguments: [String]) throws(UsageError) -> Parsed {
        guard let command = arguments.first else { throw UsageError(message: "missing command") }
        if command == "-h" || command == "--help" || command == "help" { return .help }
        let rest = arguments.dropFirst()
        let config = BoardArguments.Valued(names: ["--config"], key: "config")
        switch command {
        case "replay":
            let output = BoardArguments.Valued(names: ["-o", "--output"], key: "output")
            let parsed = try BoardArguments(rest, valued: [output, config], flags: ["--quiet"])
            if parsed.help { return .help }
            guard let trace = parsed.positionals.first else { throw UsageError(message: "missing TRACE") }
            try parsed.atMost(1)
            let out = try parsed.name("output", what: "output") ?? "-"
            return .replay(trace: trace, output: out, config: try parsed.name("config", what: "--config"))
        case "probe":
            let parsed = try BoardArguments(rest, valued: [config, .init(names: ["--bus"], key: "bus"),
                                                           .init(names: ["--address"], key: "address"),
                                                           .init(names: ["--samples"], key: "samples")], flags: [])
            if parsed.help { return .help }
            try parsed.atMost(0)
            var request = ProbeRequest(config: try parsed.name("config", what: "--config"), bus: try parsed.name("bus", what: "--bus"))
            if let text = parsed.values["address"] {
                guard let address = address(text) else {
                    throw UsageError(message: "--address needs 0x03…0x77 (0x68 AD0 low, 0x69 high), not '" + text + "'")
                }
                request.address = address
            }
            if let samples = try parsed.number("samples", option: "--samples", minimum: 0) {
                guard samples == samples.rounded(), samples <= 1_000_000 else {
                    throw UsageError(message: "--samples needs a whole number 0…1000000")
                }
                request.samples = Int(samples)
            }
            return .probe(request)
        case "safe":
            let parsed = try BoardArguments(rest, valued: [config], flags: [])
            if parsed.help { return .help }
            try parsed.atMost(0)
            guard let path = try parsed.name("config", what: "--config") else { throw UsageError(message: "missing --config COMPILED") }
            return .safe(config: path)
        case "run":
            let parsed = try BoardArguments(rest, valued: [config, .init(names: ["--record"], key: "record"),
                                                           .init(names: ["--duration"], key: "duration"),
                                                           .init(names: ["--telemetry"], key: "telemetry"),
                                                           .init(names: ["--state-dir"], key: "state"),
                                                           .init(names: ["--stats-json"], key: "stats")],
                                            flags: ["--overwrite", "--quiet"])
            if parsed.help { return .help }
            try parsed.atMost(0)
            guard let path = try parsed.name("config", what: "--config") else { throw UsageError(message: "missing --config COMPILED") }
            var request = RunRequest(config: path)
            request.record = try parsed.name("record", what: "--record")
            request.overwrite = parsed.has("--overwrite")
            if request.overwrite && request.record == nil { throw UsageError(message: "--overwrite needs --record FILE") }
            if let seconds = try parsed.number("duration", option: "--duration", minimum: 0) {
                guard seconds > 0 else { throw UsageError(message: "--duration needs a number > 0") }
                request.duration = seconds
            }
            request.telemetry = try parsed.name("telemetry", what: "--telemetry")
            request.stateDirectory = try parsed.name("state", what: "--state-dir")
            request.statsJSON = try parsed.name("stats", what: "--stats-json")
            request.quiet = parsed.has("--quiet")
            return .run(request)
        case "record":
            let parsed = try BoardArguments(rest, valued: [config, .init(names: ["--duration"], key: "duration"),
                                                           .init(names: ["--stats-json"], key: "stats")],
                                            flags: ["--overwrite", "--quiet"])
            if parsed.help { return .help }
            guard let out = parsed.positionals.first else { throw UsageError(message: "missing OUT (the recording to write)") }
            try parsed.atMost(1)
            guard let path = try parsed.name("config", what: "--config") else { throw UsageError(message: "missing --config COMPILED") }
            var request = RunRequest(config: path, record: out, overwrite: parsed.has("--overwrite"), sensorOnly: true)
            if let seconds = try parsed.number("duration", option: "--duration", minimum: 0) {
                guard seconds > 0 else { throw UsageError(message: "--duration needs a number > 0") }
                request.duration = seconds
            }
            request.statsJSON = try parsed.name("stats", what: "--stats-json")
            request.quiet = parsed.has("--quiet")
            return .run(request)
        case "calibrate":
            let parsed = try BoardArguments(rest, valued: [config, .init(names: ["--seconds"], key: "seconds")],
                                            flags: ["--yes", "-y"])
            if parsed.help { return .help }
            guard let sensor = parsed.positionals.first else { throw UsageError(message: "missing the sensor: gyro, accel or mag") }
            guard sensor == "gyro" || sensor == "accel" || sensor == "mag" else {
                throw UsageError(message: "calibrate gyro, accel or mag, not '" + sensor + "'")
            }
            try parsed.atMost(1)
            guard let path = try parsed.name("config", what: "--config") else { throw UsageError(message: "missing --config COMPILED") }
            var request = CalibrateRequest(sensor: sensor, config: path)
            if let seconds = try parsed.number("seconds", option: "--seconds", minimum: 0) {
                guard seconds > 0, seconds <= 3600 else { throw UsageError(message: "--seconds must be in (0, 3600]") }
                request.seconds = seconds
            }
            request.yes = parsed.has("--yes") || parsed.has("-y")
            return .calibrate(request)
        default:
            throw UsageError(message: "unknown command '" + command + "'")
        }
    }

    /// A 7-bit address as `0x68` or `104`, in the range `i2cdetect` probes.
    static func address(_ text: String) -> UInt8? {
        let value = text.hasPrefix("0x") || text.hasPrefix("0X") ? UInt8(text.dropFirst(2), radix: 16) : UInt8(text, radix: 10)
        guard let value, value >= 0x03, value <= 0x77 else { return nil }
        return value
    }

    /// Runs the command the arguments (after the program name) give; returns the exit status.
    public static func run(_ arguments: [String]) -> Int32 {
        let parsed: Parsed
        do { parsed = try parse(arguments) } catch {
            printError("poise-board: \(error.message)\n\(usage)")
            return 64
        }
        switch parsed {
        case .help:
            var text = usage + "\n"
            text.withUTF8 { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            return 0
        case .replay(let trace, let output, let config):
            Interruption.install()
            var failure: TraceError? = nil
            do { _ = try BoardReplay.run(trace: trace, output: output, config: config) } catch { failure = error }
            for warning in TraceWarnings.take() { printError("poise-board: warning: \(warning)") }
            if Interruption.requested {
                printError("poise-board: \(Interruption.message)")
                return 128 + Interruption.signalNumber
            }
            if let failure {
                printError("poise-board: \(failure.description)")
                return 1
            }
            return 0
        case .probe(let request):
            return BoardProbe.run(request)
        case .safe(let config):
            return BoardSafe.run(config: config)
        case .run(let request):
            return BoardRun.run(request)
        case .calibrate(let request):
            return BoardCalibrate.run(request)
        }
    }

    /// Runs the command and exits with its status.
    public static func main(_ arguments: [String]) -> Never {
        exit(run(arguments))
    }

    /// One line on standard output.
    static func printLine(_ text: String) {
        var line = text + "\n"
        line.withUTF8 { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }

    /// One line on standard error.
    static func printError(_ message: String) {
        var line = message + "\n"
        line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
