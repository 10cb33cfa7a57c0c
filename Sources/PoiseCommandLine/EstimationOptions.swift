import ArgumentParser
import PoiseConfig
import PoiseFusion
import PoiseSettings
import PoiseTraces

/// Options every command that runs a filter shares (`poise` and `poise-view`).
public struct EstimationOptions: ParsableArguments {
    @Option(help: "Filter: \(FilterKind.names) (default: the config's, else poise).")
    public var filter: String?

    @Option(help: "Configuration file (YAML); see `poise check --print-defaults`.")
    public var config: String?

    @Option(help: "Fuse the magnetometer (on: 9D) or not (off: 6D).")
    public var mag: String?

    /// The configuration file's contents, or the defaults. An invalid file is refused.
    public func loadConfiguration() throws -> PoiseConfiguration {
        guard let config else { return .default }
        InputFiles.record(path: config)
        return try PoiseConfiguration.load(path: config)
    }

    public func useMagnetometer(_ configuration: PoiseConfiguration) throws -> Bool {
        switch mag?.lowercased() {
        case nil: return configuration.filter.magnetometer
        case "on", "9d", "true": return true
        case "off", "6d", "false": return false
        case let other?: throw ValidationError("--mag '\(other)': expected on or off")
        }
    }

    public func filterChoice(_ configuration: PoiseConfiguration) throws -> FilterChoice {
        var choice = FilterChoice(configuration: configuration)
        if let filter {
            guard let kind = FilterKind(rawValue: filter.lowercased()) else {
                throw ValidationError("--filter '\(filter)' is not one of: \(FilterKind.names)")
            }
            choice.kind = kind
        }
        return choice
    }

    public init() {}
}
