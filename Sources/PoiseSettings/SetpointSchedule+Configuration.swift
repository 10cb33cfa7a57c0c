import PoiseConfig
import PoiseSchedules

extension SetpointSchedule {
    /// Where `controller.quad.setpoint_file` points: relative to the configuration file's
    /// folder unless absolute; nil when the configuration uses no setpoint file.
    public static func filePath(of configuration: PoiseConfiguration, configPath: String?) -> String? {
        let file = configuration.controller.quad.setpointFile
        guard !file.isEmpty, configuration.controller.kind == .quadX || configuration.controller.kind == .quadPlus
        else { return nil }
        if file.hasPrefix("/") { return file }
        guard let configPath, let slash = configPath.lastIndex(of: "/") else { return file }
        return String(configPath[...slash]) + file
    }

    /// The schedule a configuration flies: its setpoint file, read and checked row by row, or
    /// the fixed test throttle. `poise run` and `poise check` both call this, so `check`
    /// refuses exactly the files `run` refuses. The error names FILE:LINE:COLUMN.
    public static func forConfiguration(_ configuration: PoiseConfiguration, configPath: String?) throws -> SetpointSchedule {
        guard let path = filePath(of: configuration, configPath: configPath) else {
            return SetpointSchedule(throttle: Float(configuration.controller.quad.throttle))
        }
        let text = try PoiseConfiguration.readText(path: path, limit: maximumFileBytes)
        return try SetpointSchedule(path: path, text: text)
    }
}
