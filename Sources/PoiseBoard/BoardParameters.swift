#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#endif
import PoiseFlightSettings
import PoiseTelemetry
import PoiseTraces

/// The parameters stored on the board (``StoredParameters``, the state directory's
/// `parameters.yaml`) over the compiled file, as `poise run` applies its overlay over the YAML:
/// read at the start and at each SIGHUP, each entry checked as the host checks it (unknown key,
/// not a parameter, wrong type, out of range, the safety rules between keys, each refusal with
/// its line), applied through the one parameter table (``FlightParameters``).
enum BoardParameters {
    /// What the run starts (or a reload continues) with.
    struct Loaded {
        /// The compiled file's settings with the stored parameters applied (their recorded
        /// configuration too, so that a recording replays with them).
        var settings: FlightSettings
        /// Every parameter's value now (table order), the file's unit; empty when the compiled
        /// file records no configuration.
        var values: [Double]
        /// The compiled file's own values (what `# was` records).
        var compiled: [Double]
        /// The stored parameters applied, nil when there were none.
        var stored: StoredParameters?
    }

    /// The overlay's path in the state directory (`--state-dir`, `$STATE_DIRECTORY`,
    /// /var/lib/poise when it exists, as for the signing key), nil without one.
    static func overlayPath(stateDirectory: String?) -> String? {
        guard let directory = MAVLinkSigningStore.directory(option: stateDirectory) else { return nil }
        return directory.hasSuffix("/") ? directory + StoredParameters.fileName : directory + "/" + StoredParameters.fileName
    }

    /// `compiled` (the compiled file's settings) with the overlay at `overlayPath` applied.
    /// A bad overlay is refused with every problem at its line.
    static func load(_ compiled: FlightSettings, overlayPath: String?) throws(StoredParametersError) -> Loaded {
        let recorded = RecordedConfiguration.parameterValues(compiled.recordedConfiguration)
        guard let overlayPath, let text = try read(overlayPath) else {
            return Loaded(settings: compiled, values: recorded ?? [], compiled: recorded ?? [], stored: nil)
        }
        guard let recorded else {
            throw StoredParametersError([overlayPath + ": the compiled file records no configuration to apply stored parameters over; "
                                         + "compile it again with this poise"])
        }
        let scalars = RecordedConfiguration.scalars(compiled.recordedConfiguration)
        let stored = try StoredParameters(parsing: text, file: overlayPath, isKey: { scalars[$0] != nil })
        guard !stored.isEmpty else { return Loaded(settings: compiled, values: recorded, compiled: recorded, stored: nil) }
        var values = recorded
        for entry in stored.entries { values[entry.index] = entry.value }
        let broken = FlightParameters.brokenRules(in: values)
        if !broken.isEmpty {
            var problems: [String] = []
            for rule in broken {
                // At the overlay's line of the rule's key, else of the first entry that alone breaks it.
                var line = 0
                if let index = FlightParameters.index(ofPath: rule.path), let entry = stored[index] { line = entry.line }
                if line == 0 {
                    for entry in stored.entries {
                        var one = recorded
                        one[entry.index] = entry.value
                        if !FlightParameters.brokenRules(in: one).isEmpty { line = entry.line; break }
                    }
                }
                problems.append(overlayPath + (line > 0 ? ":" + String(line) : "") + ": " + rule.path + ": " + rule.message)
            }
            throw StoredParametersError(problems)
        }
        var settings = compiled
        for entry in stored.entries { entry.parameter.apply(entry.value, to: &settings) }
        settings.recordedConfiguration = RecordedConfiguration.setting(values, in: compiled.recordedConfiguration)
        return Loaded(settings: settings, values: values, compiled: recorded, stored: stored)
    }

    /// The overlay's text, nil when there is none; a file that is not a regular one, or cannot be read, is refused.
    static func read(_ path: String) throws(StoredParametersError) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw StoredParametersError([path + ": cannot be read: " + CompiledSettingsFile.message(errno)])
        }
        // A FIFO would hang the start; a device or a directory is no overlay.
        guard UInt32(info.st_mode) & 0o170000 == 0o100000 else { throw StoredParametersError([path + ": not a regular file: refused"]) }
        do throws(TraceError) {
            return String(decoding: try CompiledSettingsFile.readBytes(path: path, limit: 64 << 10, what: "a parameters file"), as: UTF8.self)
        } catch {
            throw StoredParametersError([error.description])
        }
    }

    /// Replaces the overlay at `path` with `text` atomically (a temporary file beside it,
    /// flushed, renamed over it, the directory flushed: a power cut leaves the old file or the new).
    static func write(_ text: String, to path: String) throws(TraceError) {
        try OutputFile.write(text, to: path, editingInput: true)
    }

    /// Removes the overlay at `path` (none there: nothing to do), the directory flushed.
    static func remove(_ path: String) throws(TraceError) {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw TraceError(file: path, line: 0, column: 0, message: "cannot remove: " + CompiledSettingsFile.message(errno))
        }
        var directory = "."
        if let slash = path.lastIndex(of: "/") { directory = slash == path.startIndex ? "/" : String(path[..<slash]) }
        let fd = open(directory, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
        if fd >= 0 { _ = fsync(fd); close(fd) }
    }

    /// The last path component: "parameters.yaml".
    static func fileName(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}

/// The parameters in force on the board and what storage needs (``BoardReload`` keeps it with
/// the running settings, under its lock): every value (table order, the file's unit), the
/// compiled file's values as the run or the last reload took them, the parameters set over
/// MAVLink and not stored yet, and the compiled file's value of each refused for a conflict
/// (set again over the link, it is stored over that value: the ground station was told and chose).
struct BoardParameterState {
    var values: [Double]
    var compiled: [Double]
    var changed: [Bool]
    var refused: [Double?]

    init(_ loaded: BoardParameters.Loaded) {
        values = loaded.values
        compiled = loaded.compiled
        changed = Array(repeating: false, count: loaded.values.count)
        refused = Array(repeating: nil, count: loaded.values.count)
    }
}
