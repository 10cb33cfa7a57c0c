import PoiseConfig
import PoiseTraces

/// The configuration a recording was made with, carried in its own metadata so that
/// `poise replay REC` needs no `--config`: every key's effective value (file, board profile
/// and defaults merged) as YAML, one metadata line per YAML line, each starting `# config| `.
/// The lines are free comments to every other reader. `board.profile` is cleared: its values
/// are already merged, and the profile file may not exist where the recording is replayed.
public enum EmbeddedConfiguration {
    static let prefix = "# config| "

    /// Appends `configuration`'s lines to `metadata`.
    public static func add(_ configuration: PoiseConfiguration, to metadata: inout TraceMetadata) {
        var table = configuration.values
        table["board.profile"] = .string("")
        let yaml = ConfigWriter.yaml(table, comments: false)
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: true) {
            metadata.append(line: prefix + line)
        }
    }

    /// The embedded YAML, or nil when the trace carries none.
    public static func text(in metadata: TraceMetadata) -> String? {
        let lines = metadata.lines.filter { $0.hasPrefix(prefix) }.map { $0.dropFirst(prefix.count) }
        return lines.isEmpty ? nil : lines.joined(separator: "\n") + "\n"
    }

    /// The embedded configuration of the trace at `trace`, or nil when it carries none.
    /// Problems name the trace ("REC (embedded configuration)") and the line within the YAML.
    public static func configuration(in metadata: TraceMetadata, trace: String) throws(ConfigErrors) -> PoiseConfiguration? {
        guard let text = text(in: metadata) else { return nil }
        return try PoiseConfiguration.parse(text: text, file: "\(trace) (embedded configuration)")
    }

    /// The keys whose effective values differ (`board.profile` aside), in schema order.
    public static func differences(_ a: PoiseConfiguration, _ b: PoiseConfiguration) -> [String] {
        ConfigSchema.keys.map(\.path).filter { $0 != "board.profile" && a.values[$0] != b.values[$0] }
    }
}
