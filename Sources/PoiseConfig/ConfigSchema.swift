/// Every key of a Poise configuration file.
///
/// Every key is a ``ConfigBinding``, declared beside the field it sets (the section structs of
/// ``PoiseConfiguration``, the filters' and controllers' settings): the loader,
/// `poise check --print-defaults`, `boards/poise.example.yaml`, the docs/config.md table and
/// the typed ``PoiseConfiguration`` all follow from those bindings. Order here is the order of
/// the generated file. Units are those a person writes; code converts to SI where it reads them.
public enum ConfigSchema {
    /// Sections and subsections, with the comment printed above them.
    public static let groups: [ConfigGroup] = [
        ConfigGroup("board", doc: "Where the MPU-9250 is and how it is mounted."),
        ConfigGroup("sensor", doc: "MPU-9250 and AK8963 settings."),
        ConfigGroup("sensor.calibration", doc: "Corrections applied to raw readings, chip frame (from `poise calibrate`)."),
    ] + filterGroups + [
        ConfigGroup("frame", doc: "Reference frame the attitude is reported in (Core Motion names)."),
    ] + controlGroups + outputGroups + loopGroups + telemetryGroups + inputGroups

    /// All keys, in file order.
    public static let keys: [ConfigKey] = hardwareKeys + filterKeys + applicationKeys + controlKeys + outputKeys + loopKeys + telemetryKeys + inputKeys

    static let hardwareKeys: [ConfigKey] = PoiseConfiguration.Board.bindings.map(\.key) + PoiseConfiguration.Sensor.bindings.map(\.key)

    static let applicationKeys: [ConfigKey] = PoiseConfiguration.Frame.bindings.map(\.key)

    /// The values of a file with nothing in it.
    public static let defaults: ConfigTable = {
        var table = ConfigTable()
        for key in keys {
            if let value = key.defaultValue { table[key.path] = value }
        }
        return table
    }()

    /// The key at `path`, if the schema has one.
    public static func key(_ path: String) -> ConfigKey? {
        keys.first { $0.path == path }
    }
}
