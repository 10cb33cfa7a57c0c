import ArgumentParser
import PoiseConfig
import PoiseFlightSettings
import PoiseFusion
import PoiseSettings
import PoiseTraces

/// Options every command that runs a filter shares (`poise` and `poise-view`).
public struct EstimationOptions: ParsableArguments {
    @Option(help: "Filter (default: the config's, else poise).")
    public var filter: FilterKind?

    @Option(help: "Configuration file (YAML); see `poise check --print-defaults`.")
    public var config: String?

    @Option(help: "Fuse the magnetometer (on: 9D) or not (off: 6D) (default: the config's filter.magnetometer).")
    public var mag: MagnetometerSwitch?

    /// The configuration file's contents, or the defaults. An invalid file is refused.
    public func loadConfiguration() throws -> PoiseConfiguration {
        guard let config else { return .default }
        InputFiles.record(path: config)
        return try PoiseConfiguration.load(path: config)
    }

    public func useMagnetometer(_ configuration: PoiseConfiguration) throws -> Bool {
        mag.map { $0 == .on } ?? configuration.filter.magnetometer
    }

    public func filterChoice(_ configuration: PoiseConfiguration) throws -> FilterSettings {
        var choice = FilterSettings(configuration: configuration)
        if let filter { choice.kind = filter }
        return choice
    }

    public init() {}
}

extension FilterKind: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}

/// `--mag on|off` (also 9d/6d, true/false).
public enum MagnetometerSwitch: String, CaseIterable, Sendable, ExpressibleByArgument {
    case on, off

    public init?(argument: String) {
        switch argument.lowercased() {
        case "on", "9d", "true": self = .on
        case "off", "6d", "false": self = .off
        default: return nil
        }
    }
}
