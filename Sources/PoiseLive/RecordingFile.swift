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

    /// The `# config| ` lines of a sensor-only recording (`record`: no controller, no outputs)
    /// made from a run's `lines`: `controller.kind: none` and `outputs.channels: []`, every
    /// other line as it is — what the configuration writer gives for that effective
    /// configuration, so the board (which has only the compiled file's lines) and the host
    /// write the same header.
    public static func sensorOnlyLines(_ lines: [String]) -> [String] {
        let prefix = "# config| "
        var result: [String] = []
        result.reserveCapacity(lines.count)
        var section = ""
        var skippingChannels = false
        for line in lines {
            guard line.hasPrefix(prefix) else {
                result.append(line)
                continue
            }
            let text = line.dropFirst(prefix.count)
            if skippingChannels {
                if text.hasPrefix("    ") { continue }
                skippingChannels = false
            }
            if !text.hasPrefix(" ") {
                section = String(text)
            } else if section == "controller:" && text.hasPrefix("  kind: ") {
                result.append(prefix + "  kind: none")
                continue
            } else if section == "outputs:" && (text == "  channels:" || text.hasPrefix("  channels: ")) {
                result.append(prefix + "  channels: []")
                skippingChannels = true
                continue
            }
            result.append(line)
        }
        return result
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
