extension ConfigSchema {
    // The fixed-rate loop, its recording and the simulated world `poise run` uses without
    // hardware. Typed properties live in PoiseConfiguration+Loop.swift.

    static let loopGroups: [ConfigGroup] = [
        ConfigGroup("loop", doc: "The fixed-rate loop of `poise run`."),
        ConfigGroup("recording", doc: "What `poise run --record` and `poise record` write, from a thread of their own."),
        ConfigGroup("simulation", doc: "The simulated world of `board.kind: sim`: the plant the outputs drive and how the run starts."),
    ]

    static let loopKeys: [ConfigKey] = [
        // loop
        ConfigKey("loop.rate_hz", .number(range: 1...2000), default: 200, unit: "Hz", doc: "Tick rate. `poise check` refuses a rate the I²C bus cannot carry (board.i2c_clock_hz)."),
        ConfigKey("loop.overrun_limit", .integer(range: 1...1000), default: 5, doc: "Consecutive overruns (a tick still computing at the next deadline) before the safe state."),
        ConfigKey("loop.realtime_priority", .integer(range: 0...99), default: 0, doc: "SCHED_FIFO priority; 0 leaves normal scheduling. Needs root or CAP_SYS_NICE; without it the loop warns once and runs anyway."),
        ConfigKey("loop.cpu", .integer(range: -1...1023), default: -1, doc: "CPU the loop thread is pinned to; -1 lets it run on any."),
        ConfigKey("loop.lock_memory", .boolean, default: true, doc: "mlockall: keep every page in RAM so no tick waits for a page fault (warns when not permitted)."),
        ConfigKey("loop.gyroscope_bias_time", .number(range: 0...60), default: 1, unit: "s", doc: "Time at start-up, board still, over which the gyroscope bias is measured before arming; 0 uses sensor.calibration.gyroscope_bias as it is."),
        ConfigKey("loop.log_interval", .number(range: 0...3600), default: 10, unit: "s", doc: "Period of the statistics line in the log; 0 for none."),
        // recording
        ConfigKey("recording.ring_capacity", .integer(range: 64...1_048_576), default: 2048, unit: "records", doc: "Records the lock-free ring between the tick and the writer holds (2048: 2 s at 1 kHz, about 0.7 MB); a full ring drops records (counted), it never blocks the tick."),
        ConfigKey("recording.flush_interval", .number(range: 0.01...60), default: 0.25, unit: "s", doc: "How often the writer hands whole records to the kernel: a killed or crashed process loses at most this much of the recording."),
        ConfigKey("recording.sync_interval", .number(range: 0...3600), default: 1, unit: "s", doc: "How often the writer asks the kernel to put the recording on the disk (fdatasync): a power cut loses at most about this much more than flush_interval; 0 syncs only at the end (docs/loop.md gives the cost)."),
        // simulation
        ConfigKey("simulation.plant", .enumeration(["auto", "balancing_robot", "quadrotor", "motion"]), default: "auto", doc: "What the simulated MPU-9250 is fixed to: `auto` picks the plant the controller drives (balance → balancing_robot, quad → quadrotor on a test stand, none → motion)."),
        ConfigKey("simulation.motion", .enumeration(["demo", "figure-eight", "tumble", "translation", "static"]), default: "demo", doc: "Scripted motion for `plant: motion` (the `poise synth` presets), repeated."),
        ConfigKey("simulation.initial_tilt_deg", .number(range: -90...90), default: 5, unit: "°", doc: "Initial tilt of the plant about body x (pitch) at start."),
        ConfigKey("simulation.gust_torque", .number(range: 0...100), default: 0, unit: "N·m", doc: "Gust torque about body x applied to the quadrotor once, for gust_duration; 0 for none."),
        ConfigKey("simulation.gust_time", .number(range: 0...3600), default: 5, unit: "s", doc: "When the gust starts."),
        ConfigKey("simulation.gust_duration", .number(range: 0...60), default: 0.3, unit: "s", doc: "How long the gust lasts."),
        ConfigKey("simulation.switch_on_s", .number(range: 0...3600), default: 1, unit: "s", doc: "When the simulated arming switch turns on (`safety.arm_source: switch` on the sim board); it is off before."),
        ConfigKey("simulation.switch_off_s", .number(range: 0...3600), default: 0, unit: "s", doc: "When the simulated arming switch turns off again; 0 never."),
        ConfigKey("simulation.seed", .integer(range: 0...Int(Int32.max)), default: 1, doc: "Seed of the simulated sensor's noise: the same seed gives the same run."),
        ConfigKey("simulation.sensor_errors", .enumeration(["typical", "ideal"]), default: "typical", doc: "`typical`: a calibrated MPU-9250's noise, bias and scale errors; `ideal`: exact readings."),
    ]
}
