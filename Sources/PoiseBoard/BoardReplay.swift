import PoiseFusion
import PoiseMath
import PoiseTraces

/// `poise-board replay`: a plain sensor trace through the default filter, written as
/// `poise replay TRACE` writes it with its default options — the input's metadata plus
/// `estimate`, `frame` and `magnetometer`, the header `t,qw,qx,qy,qz,roll,pitch,yaw`, then one
/// row per sample. The board binary is this module and the ones below it compiled in Embedded
/// Swift (scripts/build-board); `scripts/check-board` compares its output under qemu with the
/// host's byte for byte.
///
/// What "default" means here is what `poise replay` does without `--config`: the default
/// configuration's filter (`FilterKind.default` with `PoiseFilter.Settings.default`, no
/// lever arm), the magnetometer fused when the trace has one, ENU output, no declination and
/// no sensor calibration. The reading, the filter and the formatting are the same code as
/// the host's (PoiseTraces' reader and writer, PoiseFusion's filter, PoiseMath's frames and
/// Euler angles); the loop below is the one of PoiseReplay's `TraceFeed.run` and the row the
/// base columns of its `RowWriter`, which live in a module that needs the configuration
/// (Yams) and so cannot be built for the board.
public enum BoardReplay {
    /// The output header: `Replay.baseColumns`.
    public static let columns = ["t", "qw", "qx", "qy", "qz", "roll", "pitch", "yaw"]
    /// The filter `poise replay` runs without `--config` or `--filter`.
    public static let filter = FilterKind.default
    /// The output frame of the default configuration.
    public static let frame = OutputFrame.axes(.enu)
    /// Time step of the first sample when the trace gives no `rate_hz`, s (`ReplayOptions`).
    public static let fallbackStep = 0.01

    /// Counts of a finished replay.
    public struct Summary: Sendable {
        /// Samples given to the filter (and rows written).
        public var samples = 0
        /// Time of the first and the last sample, s.
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
    /// renamed into place at the end).
    public static func run(trace: String, output: String) throws(TraceError) -> Summary {
        var reader = try TraceReader(path: trace)
        if reader.sampleColumn >= 0 {
            throw TraceError(file: trace, line: 0, column: 0, message:
                "a `poise run` recording (it has a `sample` column) replays through the loop's whole tick, "
                + "which the board binary does not have yet; replay it with `poise replay` on the host")
        }
        var writer = try CSVTraceWriter(path: output, metadata: outputMetadata(input: reader.metadata), columns: columns)
        var filter = PoiseFilter(settings: .default)
        var transform = OutputFrameTransform(frame)
        let nominalStep = reader.metadata["rate_hz"].flatMap(Double.init).map { 1 / $0 } ?? fallbackStep
        var summary = Summary()
        var previousTime: Double? = nil
        while let sample = try reader.next() {
            let dt = previousTime.map { sample.time - $0 } ?? nominalStep
            if previousTime == nil { summary.firstTime = sample.time }
            previousTime = sample.time
            summary.lastTime = sample.time
            let input = InertialSample(accelerometer: sample.accelerometer, gyroscope: sample.gyroscope,
                                       magnetometer: sample.magnetometer)
            filter.update(input, dt: Float(dt))
            summary.samples += 1
            writeRow(time: sample.time, attitude: transform.attitude(fromENU: filter.attitude), to: &writer)
        }
        try writer.close()
        return summary
    }

    /// One row: the time, the quaternion, then Core Motion's Euler angles of it.
    static func writeRow(time: Double, attitude q: Quaternion, to writer: inout CSVTraceWriter) {
        writer.append(time)
        writer.append(q.w); writer.append(q.x); writer.append(q.y); writer.append(q.z)
        let e = EulerAngles(q)
        writer.append(e.roll); writer.append(e.pitch); writer.append(e.yaw)
        writer.endRow()
    }
}
