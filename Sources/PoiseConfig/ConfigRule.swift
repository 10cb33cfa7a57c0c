/// A check across keys, run once every key is valid on its own.
///
/// Reported on the line of the first of `paths` the file actually sets (a default has no
/// line), so the message points at something the user wrote.
public struct ConfigRule: Sendable {
    /// `nil` for the whole file, or a list key whose every element is checked.
    public let list: String?
    /// Keys involved, relative to the element for list rules; the error names the one it is on.
    public let paths: [String]
    /// Returns what is wrong, or `nil`. Gets the element (or the whole file) and the whole file.
    public let check: @Sendable (_ scope: ConfigTable, _ root: ConfigTable) -> String?

    public init(list: String? = nil, paths: [String],
                check: @escaping @Sendable (_ scope: ConfigTable, _ root: ConfigTable) -> String?) {
        self.list = list
        self.paths = paths
        self.check = check
    }
}

extension ConfigSchema {
    /// Combinations that are each valid but make no sense together.
    public static let rules: [ConfigRule] = [
        busRule,
        ConfigRule(paths: ["frame.output", "filter.magnetometer", "sensor.magnetometer"]) { file, _ in
            let reference = file.string("frame.output")
            guard reference == "xMagneticNorthZVertical" || reference == "xTrueNorthZVertical" else { return nil }
            if !file.boolean("sensor.magnetometer") { return "`\(reference)` needs sensor.magnetometer: true" }
            if !file.boolean("filter.magnetometer") { return "`\(reference)` needs filter.magnetometer: true" }
            return nil
        },
        ConfigRule(paths: ["filter.magnetometer", "sensor.magnetometer"]) { file, _ in
            guard file.boolean("filter.magnetometer"), !file.boolean("sensor.magnetometer") else { return nil }
            return "filter.magnetometer is true but sensor.magnetometer is false; set filter.magnetometer: false for 6D fusion"
        },
    ] + outputRules
}
