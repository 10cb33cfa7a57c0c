import PoiseReplayCore
import PoiseTraces

/// The recording of a live run, opened before the first tick: under its own name from the
/// first record (docs/robustness.md), its header — with the configuration that replays it —
/// on the disk before the loop starts.
public enum RecordingFile {
    /// What a recording's header says about it: who wrote it, the tick rate, that its sensor
    /// columns are calibrated already, its frame; then `configurationLines` (the effective
    /// configuration, as `# config| ` lines, that `poise replay` takes).
    public static func metadata(source: String, rateHz: Double, configurationLines: [String]) -> TraceMetadata {
        var metadata = TraceMetadata()
        metadata.set("source", source)
        metadata.set("rate_hz", String(rateHz))
        metadata.set(ReplayCalibration.traceMetadataKey, "yes")
        metadata.set("frame", "enu")
        for line in configurationLines { metadata.append(line: line) }
        return metadata
    }

    /// The writer, its header flushed (and synced when `syncInterval` > 0).
    public static func open(path: String, columns: RecordingColumns, metadata: TraceMetadata, overwrite: Bool,
                            syncInterval: Double) throws(TraceError) -> TraceWriter {
        guard let format = TraceWriter.format(forPath: path) else {
            throw TraceError(file: path, line: 0, column: 0, message: "the recording needs a .csv or .ptrace extension")
        }
        var writer = try TraceWriter(path: path, format: format, metadata: metadata, columns: columns.names,
                                     mode: .live(overwrite: overwrite))
        writer.flush()
        if syncInterval > 0 { _ = writer.sync() }
        return writer
    }
}
