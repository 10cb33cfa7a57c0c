import PoiseFlightSettings
import PoiseFusion
import PoiseMath
import PoiseReplayCore
import PoiseTraces

/// `poise-board replay`: writes exactly what `poise replay TRACE` writes on the host.
///
/// - A `poise run` recording (it has a `sample` column) runs through the loop's whole tick
///   with the settings of `--config COMPILED` (what `poise compile` wrote from the recording's
///   configuration): PoiseReplayCore's ``TickReplayLoop``, the host's loop.
/// - A plain sensor trace (what `poise synth` writes) runs through the default filter, as
///   `poise replay TRACE` does without `--config`: the default configuration's filter
///   (`FilterKind.default` with `PoiseFilter.Settings.default`, no lever arm), the magnetometer
///   fused when the trace has one, ENU output, no declination and no sensor calibration; the
///   input's metadata plus `estimate`, `frame` and `magnetometer`, the header
///   `t,qw,qx,qy,qz,roll,pitch,yaw`, then one row per sample. The step is PoiseReplayCore's
///   ``SampleFeed`` and the row its ``ReplayRow``, the host's too.
///
/// The board binary is this module and the ones below it compiled in Embedded Swift
/// (scripts/build-board); `scripts/check-board` compares its output under qemu with the
/// host's byte for byte.
public enum BoardReplay {
    /// The output header: `Replay.baseColumns`.
    public static let columns = ReplayRow.baseColumns
    /// The filter `poise replay` runs without `--config` or `--filter`.
    public static let filter = FilterKind.default
    /// The output frame of the default configuration.
    public static let frame = OutputFrame.axes(.enu)
    /// Time step of the first sample when the trace gives no `rate_hz`, s (`ReplayOptions`).
    public static let fallbackStep = 0.01

    /// Counts of a finished replay.
    public struct Summary: Sendable {
        /// Samples given to the filter (and rows written); ticks of a recording.
        public var samples = 0
        public var ticks = 0
        /// Time of the first and the last sample, s (of a plain trace).
        public var firstTime = 0.0
        public var lastTime = 0.0
    }

    /// The output's metadata: the input's, plus what produced the estimate (as
    /// `Replay.outputMetadata` writes it for the default options; no calibration applies).
    public static func outputMetadata(input: TraceMetadata) -> TraceMetadata {
        var metadata = input
        metadata.set("estimate", filter.rawValue)
        metadata.set("frame", frame.name)
        metadata.set("magnetometer", "on")
        return metadata
    }

    /// Replays the trace at `trace` (`-`: standard input) into `output` (`-`: standard
    /// output; a file is written under PoiseTraces' output-file policy: a temporary file
    /// renamed into place at the end). `config`: a compiled configuration's path, for a recording.
    public static func run(trace: String, output: String, config: String? = nil) throws(TraceError) -> Summary {
        let reader = try TraceReader(path: trace)
        if reader.sampleColumn >= 0 {
            guard let config else {
                throw TraceError(file: trace, line: 0, column: 0, message:
                    "a `poise run` recording (it has a `sample` column) replays through the loop's whole tick: "
                    + "give its compiled configuration with --config (`poise compile \(trace) -o FILE` on the host)")
            }
            let settings = try CompiledSettingsFile.settings(path: config)
            let summary = try TickReplayLoop.run(settings: settings, reader: reader, output: output)
            return Summary(samples: summary.samples, ticks: summary.ticks)
        }
        if let config {
            throw TraceError(file: config, line: 0, column: 0, message:
                "--config applies to a `poise run` recording; \(trace) is a plain trace, replayed with the default filter")
        }
        return try runPlain(reader: reader, output: output)
    }

    static func runPlain(reader: consuming TraceReader, output: String) throws(TraceError) -> Summary {
        var reader = reader
        var writer = try CSVTraceWriter(path: output, metadata: outputMetadata(input: reader.metadata), columns: columns)
        var filter = PoiseFilter(settings: .default)
        var transform = OutputFrameTransform(frame)
        var feed = SampleFeed(metadata: reader.metadata, calibration: nil, useMagnetometer: true, fallbackStep: fallbackStep)
        while let step = try feed.next(&filter, reader: &reader) {
            writer.append(step.sample.time)
            ReplayRow.append(transform.attitude(fromENU: filter.attitude), to: &writer)
            writer.endRow()
        }
        try writer.close()
        return Summary(samples: feed.samples, firstTime: feed.firstTime, lastTime: feed.lastTime)
    }
}
