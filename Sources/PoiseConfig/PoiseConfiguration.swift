import Foundation

/// A validated Poise configuration, one nested struct per section of the file.
///
/// Each section is set by the bindings of its keys (``ConfigBinding``). Sections of plain
/// fields hold the units the file uses (documented on each property and in `docs/config.md`);
/// a filter's, a controller's and the supervisor's settings (`safety.supervisor`) hold SI
/// units. Every key is also readable by path through ``values``.
public struct PoiseConfiguration: Equatable, Sendable {
    public var board: Board
    public var sensor: Sensor
    public var filter: Filter
    public var frame: Frame
    public var controller: Controller
    public var outputs: Outputs
    public var safety: Safety
    public var loop: Loop
    public var recording: Recording
    public var simulation: Simulation
    /// Every key by dotted path, as loaded (defaults filled in), e.g. `values.number("loop.rate_hz")`.
    public var values: ConfigTable

    /// The configuration of an empty file.
    public static let `default` = PoiseConfiguration(values: ConfigSchema.defaults)

    /// Builds the typed view of values that have passed ``ConfigParser`` (every key present).
    public init(values: ConfigTable) {
        self.values = values
        board = Board(values)
        sensor = Sensor(values)
        filter = Filter(values)
        frame = Frame(values)
        controller = Controller(values)
        outputs = Outputs(values)
        safety = Safety(values)
        loop = Loop(values)
        recording = Recording(values)
        simulation = Simulation(values)
    }

    /// Parses configuration text; `file` names it in error messages.
    public static func parse(text: String, file: String) throws(ConfigErrors) -> PoiseConfiguration {
        PoiseConfiguration(values: try ConfigParser.parse(text: text, file: file))
    }

    /// Reads and parses the file at `path`. Every problem is reported, each with its line.
    ///
    /// When the file names a `board.profile`, the profile is read first and its values become
    /// the defaults of the file: what the file writes wins, what it leaves out comes from the
    /// profile. Profiles are found next to the file, in its `boards/` folder, in the
    /// installed profile folders, or else among the shipped ones built into the program
    /// (``ProfileSearch``).
    public static func load(path: String) throws(ConfigErrors) -> PoiseConfiguration {
        let text = try readText(path: path)
        let values = try ConfigParser.parse(text: text, file: path)
        let profile = values.string("board.profile")
        guard !profile.isEmpty else { return PoiseConfiguration(values: values) }
        let found: ProfileSearch.Found
        do { found = try ProfileSearch.resolve(profile, from: path) } catch {
            // At the line that names it.
            let line = ConfigParser.writtenLines(text: text, file: path)["board.profile"]
            throw ConfigErrors(error.errors.map { var e = $0; e.line = e.line ?? line; return e })
        }
        let profileValues = try ConfigParser.parse(text: try found.text(), file: found.file)
        guard profileValues.string("board.profile").isEmpty else {
            throw ConfigErrors([ConfigError(file: found.file, key: "board.profile",
                                            message: "a profile cannot name another profile")])
        }
        let keys = ConfigSchema.keys.map { key in key.withDefault(profileValues[key.path] ?? key.defaultValue) }
        return PoiseConfiguration(values: try ConfigParser.parse(text: text, file: path, keys: keys))
    }

    /// The largest configuration file read, bytes. A configuration is a few kB; a bigger file
    /// is a mistake (a log or a trace given as the config), and parsing one took hundreds of
    /// MB and seconds (locked in memory by `loop.lock_memory`).
    public static let maximumBytes = 1 << 20

    /// The file's text, or a positioned-by-file error saying why it cannot be read (or that
    /// it is larger than `limit` bytes, read no further).
    public static func readText(path: String, limit: Int = maximumBytes) throws(ConfigErrors) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ConfigErrors([ConfigError(file: path, message: "no such file")])
        }
        guard !isDirectory.boolValue else {
            throw ConfigErrors([ConfigError(file: path, message: "is a directory, not a configuration file")])
        }
        guard let handle = FileHandle(forReadingAtPath: path),
              let data = try? handle.read(upToCount: limit + 1) ?? Data() else {
            throw ConfigErrors([ConfigError(file: path, message: "cannot be read (check its permissions)")])
        }
        try? handle.close()
        guard data.count <= limit else {
            throw ConfigErrors([ConfigError(file: path, message: "larger than \(limit >= 1 << 20 ? "\(limit >> 20) MiB" : "\(limit >> 10) KiB"): refused (a configuration is a few kB; is this the right file?)")])
        }
        if let error = ConfigError.notText(file: path, bytes: Array(data)) { throw ConfigErrors([error]) }
        return String(decoding: data, as: UTF8.self)
    }
}

extension ConfigTable {
    /// An enumeration key as its Swift enum; the parser has checked the word is a case.
    func choice<T: RawRepresentable>(_ path: String) -> T where T.RawValue == String {
        guard let value = T(rawValue: string(path)) else { preconditionFailure("`\(path)`: no case \(string(path))") }
        return value
    }
}
