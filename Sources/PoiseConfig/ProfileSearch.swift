import Foundation

/// Finds the file a `board.profile` names.
///
/// A value with a `/` or ending in `.yaml` is a path, relative to the configuration file that
/// names it. A bare name (`raspberry-pi-5`) is looked up as `NAME.yaml` in, in order: the
/// configuration file's folder, its `boards/` subfolder, the `boards/` folder of the
/// repository or installation holding the running `poise` (`../share/poise/boards` next to
/// `bin/`), and `/etc/poise/boards`; when none of them has it, the copy of the shipped
/// profile built into the program (``BuiltInProfiles``), so a `poise` copied on its own to a
/// board still finds `raspberry-pi-4`. A file on disk always wins over the built-in copy.
public enum ProfileSearch {
    /// A profile found: a file, or a shipped profile built into the program.
    public struct Found: Sendable, Equatable {
        /// The file's path, or `built-in boards/NAME.yaml`: what error messages name.
        public let file: String
        /// The built-in profile's text; nil for a file on disk.
        public let builtInText: String?

        /// The profile's text (read from the disk for a file).
        public func text() throws(ConfigErrors) -> String {
            if let builtInText { return builtInText }
            return try PoiseConfiguration.readText(path: file)
        }
    }

    /// The installed profile folders that exist (and `/etc/poise/boards` always), in search
    /// order after the configuration's own folder.
    public static var installedFolders: [String] {
        var folders: [String] = []
        var directory = runningExecutable.deletingLastPathComponent()
        // A build tree (.build/release/poise) or an install prefix (bin/poise).
        for _ in 0..<4 {
            folders.append(directory.appending(path: "boards").path)
            folders.append(directory.appending(path: "share/poise/boards").path)
            directory = directory.deletingLastPathComponent()
        }
        var isDirectory: ObjCBool = false
        folders = folders.filter { FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && isDirectory.boolValue }
        folders.append("/etc/poise/boards")
        return folders
    }

    /// The running program's own file. `argv[0]` is only what the shell was given — `poise`
    /// when found on PATH — so the kernel's link to the executable comes first.
    static var runningExecutable: URL {
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: target).resolvingSymlinksInPath()
        }
        return URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
    }

    /// The profile `name` named by the configuration at `configPath`.
    public static func resolve(_ name: String, from configPath: String) throws(ConfigErrors) -> Found {
        let base = URL(fileURLWithPath: configPath).deletingLastPathComponent()
        if name.contains("/") || name.hasSuffix(".yaml") {
            let path = name.hasPrefix("/") ? name : base.appending(path: name).path
            guard FileManager.default.fileExists(atPath: path) else {
                throw ConfigErrors([ConfigError(file: configPath, key: "board.profile",
                                                message: "profile `\(name)` not found at \(path)")])
            }
            return Found(file: path, builtInText: nil)
        }
        var folders: [String] = []
        for folder in [base.path, base.appending(path: "boards").path] + installedFolders where !folders.contains(folder) {
            folders.append(folder)
        }
        for folder in folders {
            let candidate = folder + "/" + name + ".yaml"
            if FileManager.default.fileExists(atPath: candidate) { return Found(file: candidate, builtInText: nil) }
        }
        if let text = BuiltInProfiles.texts[name] { return Found(file: "built-in boards/\(name).yaml", builtInText: text) }
        let shipped = BuiltInProfiles.texts.keys.sorted().joined(separator: ", ")
        let file = URL(fileURLWithPath: configPath).lastPathComponent
        throw ConfigErrors([ConfigError(file: configPath, key: "board.profile",
            message: "no profile `\(name)`: not built into poise, and no \(name).yaml in " + folders.joined(separator: ", ")
                + ". Fix: name a built-in profile, put \(name).yaml next to \(file) or in /etc/poise/boards, "
                + "or write its path (relative to \(file))",
            allowed: "built in: \(shipped)")])
    }
}
