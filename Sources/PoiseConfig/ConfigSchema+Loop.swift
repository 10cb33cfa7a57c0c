extension ConfigSchema {
    // The fixed-rate loop's keys. Typed properties live in PoiseConfiguration+Loop.swift.

    static let loopGroups: [ConfigGroup] = [
        ConfigGroup("loop", doc: "The fixed-rate loop."),
    ]

    static let loopKeys: [ConfigKey] = [
        // loop
        ConfigKey("loop.rate_hz", .number(range: 1...2000), default: 200, unit: "Hz", doc: "Tick rate."),
        ConfigKey("loop.overrun_limit", .integer(range: 1...1000), default: 5, doc: "Consecutive overruns before the safe state."),
        ConfigKey("loop.realtime_priority", .integer(range: 0...99), default: 0, doc: "SCHED_FIFO priority; 0 leaves normal scheduling."),
        ConfigKey("loop.cpu", .integer(range: -1...1023), default: -1, doc: "CPU the loop thread is pinned to; -1 lets it run on any."),
    ]
}
