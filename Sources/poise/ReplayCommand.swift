import ArgumentParser
import PoiseCommandLine
import PoiseConfig
import PoiseFlightSettings
import PoiseFusion
import PoiseMath
import PoiseReplay
import PoiseSensors
import PoiseSettings
import PoiseTraces
import Foundation

/// `poise replay`: runs a recorded or synthetic trace through a filter.
struct ReplayCommand: PoiseCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run a trace through an attitude filter and write the estimate.",
        discussion: """
            Reads a CSV or binary trace, runs every sample through the same filter code the \
            live loop uses, as fast as possible, and writes one CSV row per input row: \
            t,qw,qx,qy,qz,roll,pitch,yaw (radians; Core Motion's pitch about x, roll about y, \
            yaw about z), then any --columns groups. The input's metadata is carried over. \
            The same input and config always give byte-identical output. The config's \
            sensor.calibration is applied to the readings unless the trace says \
            `# calibrated=yes` (then it has been applied already).

            Frames: enu (default, the filters' own), nwu, ned, or a Core Motion reference \
            frame: \(ReferenceFrame.allCases.map(\.rawValue).joined(separator: ", ")).
            Column groups: \(ReplayColumn.allCases.map(\.rawValue).joined(separator: ", ")), or all.

            A `poise run` recording (it has a `sample` column), or any trace with --ticks, \
            replays through the loop's whole tick instead — filter, controller, arming \
            supervisor and output mappings of the configuration the recording carries, or of \
            --config (with a warning when it differs) — and the output is in the \
            recording's format with one `out_NAME` column per output channel. A recording \
            replayed with the configuration it was made with gives byte-identical estimates, \
            arming states and outputs.

            Examples:
              poise replay run.csv --output estimate.csv
              poise replay run.ptrace --config configs/sim-balancing-robot.yaml -o replayed.csv
              poise replay run.csv --realtime --telemetry 127.0.0.1:14600   # watch it in poise view
              poise replay run.csv --filter madgwick --mag off --frame nwu -o - | head
              poise replay run.ptrace --config boards/sim.yaml --columns gravity,heading,bias -o est.csv
            """)

    @Argument(help: "The trace to replay (CSV or binary; - for standard input).")
    var trace: String

    @OptionGroup var estimation: EstimationOptions

    @OptionGroup var reading: TraceInputOptions

    @Option(help: "Reference frame or axes of the output attitude (default: the config's frame.output).")
    var frame: OutputFrame?

    @Option(parsing: .unconditional, help: "Magnetic declination for xTrueNorthZVertical, degrees east.")
    var declination: Float?

    @Option(help: "Extra column groups, comma-separated (or all).")
    var columns = ReplayColumnList()

    @Option(name: .shortAndLong, help: "Output CSV file (- for standard output).")
    var output: String = "-"

    @Flag(help: "Print neither the progress bar nor the summary.")
    var quiet = false

    @Flag(help: "Replay through the loop's whole tick (controller, arming, outputs) even for a plain trace.")
    var ticks = false

    @Flag(help: "Play the trace at its recorded speed as MAVLink telemetry instead of writing a file (as `poise play`).")
    var realtime = false

    @Option(help: "With --realtime: where to send, HOST:PORT (default: the config's telemetry.address).")
    var telemetry: String?

    func execute() throws {
        if realtime {
            var arguments = [trace]
            if let telemetry { arguments += ["--telemetry", telemetry] }
            if let f = estimation.filter { arguments += ["--filter", f.rawValue] }
            if let c = estimation.config { arguments += ["--config", c] }
            if let m = estimation.mag { arguments += ["--mag", m.rawValue] }
            if quiet { arguments.append("--quiet") }
            let play = try PlayCommand.parse(arguments)
            try play.execute()
            return
        }
        Interruption.install()
        reading.apply()
        if let path = estimation.config, let settings = try CompiledConfigurationFile.settingsIfCompiled(path: path) {
            // A compiled configuration (`poise compile`) holds what the tick needs, as the board reads it.
            let reader = try TraceReader(path: trace)
            guard ticks || reader.sampleColumn >= 0 else {
                throw ValidationError("\(path) is a compiled configuration, which replays `poise run` recordings (or --ticks); give the YAML configuration for a plain trace")
            }
            guard frame == nil, columns.columns.isEmpty else {
                throw ValidationError("--frame and --columns apply to the filter-only replay; a tick replay writes the recording format (ENU)")
            }
            let summary = try TickReplay.run(settings: settings, reader: reader, output: output)
            if !quiet { printError("replayed \(summary.ticks) ticks (\(summary.samples) samples) through the loop's tick") }
            return
        }
        let configuration = try estimation.loadConfiguration()
        var options = ReplayOptions(configuration: configuration)
        options.useMagnetometer = try estimation.useMagnetometer(configuration)
        options.columns = columns.columns
        if let declination { options.declinationDegrees = declination }
        if let frame { options.frame = frame }
        // The rule `poise check` applies to frame.output and filter.magnetometer.
        if let problem = FrameMagnetometerRule.problem(
            frame: options.frame.name, sensorMagnetometer: configuration.sensor.magnetometer,
            fusesMagnetometer: options.useMagnetometer, fuseSetting: "the magnetometer fused: leave out --mag off") {
            throw ValidationError(problem)
        }
        let choice = try estimation.filterChoice(configuration)

        let reader = try TraceReader(path: trace)
        if ticks || reader.sampleColumn >= 0 {
            guard frame == nil, columns.columns.isEmpty else {
                throw ValidationError("--frame and --columns apply to the filter-only replay; a tick replay writes the recording format (ENU)")
            }
            let summary = try TickReplay.run(configuration: tickConfiguration(configuration, metadata: reader.metadata),
                                             reader: reader, output: output)
            if !quiet { printError("replayed \(summary.ticks) ticks (\(summary.samples) samples) through the loop's tick") }
            return
        }
        let replay = Replay(options: options)
        let metadata = replay.outputMetadata(input: reader.metadata, filterName: choice.kind.rawValue)
        let writer = try CSVTraceWriter(path: output, metadata: metadata, columns: replay.outputColumns)
        let progress = ProgressBar(total: reader.metadata["samples"].flatMap(Int.init), enabled: !quiet)
        var work = ReplayWork(replay: replay, reader: consume reader, writer: consume writer, progress: progress)
        let summary = try choice.run(&work)
        progress.finish()
        if !quiet {
            printError("replayed \(summary.samples) samples (\(formatted(summary.traceSeconds, digits: 1)) s of data) "
                + "with \(choice.kind.rawValue) in \(formatted(summary.wallSeconds, digits: 3)) s: "
                + "\(formatted(summary.samplesPerSecond / 1e6, digits: 2)) M samples/s, "
                + "peak memory \(formatted(Double(peakResidentKilobytes()) / 1024, digits: 1)) MB")
        }
    }
}

extension ReplayCommand {
    /// The configuration a tick replay runs: the recording's own when it carries one and no
    /// --config is given; a --config that differs from it is used, with a warning naming the
    /// keys that differ.
    func tickConfiguration(_ given: PoiseConfiguration, metadata: TraceMetadata) throws -> PoiseConfiguration {
        let embedded: PoiseConfiguration?
        do { embedded = try EmbeddedConfiguration.configuration(in: metadata, trace: trace) } catch {
            if estimation.config == nil { throw error }
            TraceWarnings.note("\(trace): its embedded configuration is unreadable, using --config: \(error)")
            return given
        }
        guard let embedded else { return given }
        guard let path = estimation.config else { return embedded }
        let keys = EmbeddedConfiguration.differences(embedded, given)
        if !keys.isEmpty {
            let shown = keys.prefix(8).joined(separator: ", ") + (keys.count > 8 ? " and \(keys.count - 8) more" : "")
            TraceWarnings.note("\(path) differs from the configuration \(trace) was recorded with (\(shown)); "
                + "replaying with \(path) (leave out --config to replay with the recorded one)")
        }
        return given
    }
}

/// The replay loop, specialised for each filter by `FilterSettings.run`.
struct ReplayWork: FilterKindWork, ~Copyable {
    let replay: Replay
    var reader: TraceReader
    var writer: CSVTraceWriter
    let progress: ProgressBar

    mutating func run<Filter: AttitudeFilter>(_ filter: inout Filter) throws -> ReplaySummary {
        try replay.run(&filter, reader: &reader, writer: &writer, progress: progress.update)
    }
}
