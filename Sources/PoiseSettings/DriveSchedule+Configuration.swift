import PoiseConfig
import PoiseSchedules

extension DriveSchedule {
    /// Where `controller.balance.setpoint_file` points: relative to the configuration file's
    /// folder unless absolute; nil for none, or for a built-in script (`preset:NAME`).
    public static func filePath(of configuration: PoiseConfiguration, configPath: String?) -> String? {
        let file = configuration.controller.drive.setpointFile
        guard !file.isEmpty, !file.hasPrefix(presetPrefix), configuration.controller.kind == .balance else { return nil }
        if file.hasPrefix("/") { return file }
        guard let configPath, let slash = configPath.lastIndex(of: "/") else { return file }
        return String(configPath[...slash]) + file
    }

    /// The drive script a configuration follows: its file, read and checked row by row, a
    /// built-in one, or standing still. `poise run`, `poise simulate` and `poise check` all
    /// call this, so `check` refuses exactly the files `run` refuses. The error names FILE:LINE:COLUMN.
    public static func forConfiguration(_ configuration: PoiseConfiguration, configPath: String?) throws -> DriveSchedule {
        let file = configuration.controller.drive.setpointFile
        guard configuration.controller.kind == .balance, !file.isEmpty else { return DriveSchedule() }
        if file.hasPrefix(presetPrefix) {
            let name = String(file.dropFirst(presetPrefix.count))
            guard let preset = preset(named: name) else {
                throw DriveScheduleError("controller.balance.setpoint_file: no built-in drive script `\(name)` (there is: \(presets.keys.sorted().joined(separator: ", ")))")
            }
            return preset
        }
        guard let path = filePath(of: configuration, configPath: configPath) else { return DriveSchedule() }
        let text = try PoiseConfiguration.readText(path: path, limit: SetpointSchedule.maximumFileBytes)
        return try DriveSchedule(path: path, text: text)
    }
}

/// A drive script the configuration names that does not exist.
public struct DriveScheduleError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
