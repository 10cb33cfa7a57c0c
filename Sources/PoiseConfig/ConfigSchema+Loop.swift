extension ConfigSchema {
    // The fixed-rate loop, its recording and the simulated world `poise run` uses without
    // hardware. The keys are bound in PoiseConfiguration+Loop.swift, beside the fields they set.

    static let loopGroups: [ConfigGroup] = [
        ConfigGroup("loop", doc: "The fixed-rate loop of `poise run`."),
        ConfigGroup("recording", doc: "What `poise run --record` and `poise record` write, from a thread of their own."),
        ConfigGroup("simulation", doc: "The simulated world of `board.kind: sim`: the plant the outputs drive and how the run starts."),
    ]

    static let loopKeys: [ConfigKey] = PoiseConfiguration.Loop.bindings.map(\.key) + PoiseConfiguration.Recording.bindings.map(\.key)
        + PoiseConfiguration.Simulation.bindings.map(\.key)
}
