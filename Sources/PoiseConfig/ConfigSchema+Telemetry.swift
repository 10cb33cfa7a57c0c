extension ConfigSchema {
    // MAVLink telemetry's keys. The keys are bound in PoiseConfiguration+Telemetry.swift, beside the fields they set.

    static let telemetryGroups: [ConfigGroup] = [
        ConfigGroup("telemetry", doc: "Live MAVLink 2 telemetry over UDP (see docs/telemetry.md)."),
    ]

    static let telemetryKeys: [ConfigKey] = PoiseConfiguration.Telemetry.bindings.map(\.key)
}
