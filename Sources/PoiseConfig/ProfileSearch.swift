import Foundation

/// Finds the file a `board.profile` names.
///
/// A value with a `/` or ending in `.yaml` is a path, relative to the configuration file that
/// names it. A bare name (`raspberry-pi-5`) is looked up as `NAME.yaml` in, in order: the
/// configuration file's folder, its `boards/` subfolder, the `boards/` folder of the
/// repository or installation holding the running `poise` (`../share/poise/boards` next to
/// `bin/`), and `/etc/poise/boards`.
public enum ProfileSearch {
    /// The installed profile folders, in search order after the configuration's own folder.
    public static var installedFolders: [String] {
        var folders: [String] = []
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        // A build tree (.build/release/poise) or an install prefix (bin/poise).
        for _ in 0..<4 {
            folders.append(directory.appending(path: "boards").path)
            folders.append(directory.appending(path: "share/poise/boards").path)
            directory = directory.deletingLastPathComponent()
        }
        folders.append("/etc/poise/boards")
        return folders
    }

    /// The path of profile `name` named by the configuration at `configPath`.
    public static func resolve(_ name: String, from configPath: String) throws(ConfigErrors) -> String {
        let base = URL(fileURLWithPath: configPath).deletingLastPathComponent()
        if name.contains("/") || name.hasSuffix(".yaml") {
            let path = name.hasPrefix("/") ? name : base.appending(path: name).path
            guard FileManager.default.fileExists(atPath: path) else {
                throw ConfigErrors([ConfigError(file: configPath, key: "board.profile",
                                                message: "profile `\(name)` not found at \(path)")])
            }
            return path
        }
        let folders = [base.path, base.appending(path: "boards").path] + installedFolders
        for folder in folders {
            let candidate = folder + "/" + name + ".yaml"
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
        }
        throw ConfigErrors([ConfigError(file: configPath, key: "board.profile",
            message: "no profile `\(name)`; looked for \(name).yaml next to this file, in its boards/ folder and in the installed profiles (\(installedFolders.last!))")])
    }
}
