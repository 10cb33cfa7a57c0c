import PoiseDeviceSettings

// The `loop`, `recording` and `simulation` sections: each field declared with its default and
// bound once to its key. The composition (PoiseLoop) reads these sections directly; a new key
// here is one field and one binding, in this file.

extension PoiseConfiguration {
    /// `loop`.
    public struct Loop: Equatable, Sendable {
        /// Hz.
        public var rateHz: Double = 200
        public var overrunLimit = 5
        /// SCHED_FIFO priority; 0 = normal scheduling.
        public var realtimePriority = 0
        /// −1 = any CPU.
        public var cpu = -1
        public var lockMemory = true
        /// s; 0 = take the configured calibration as it is.
        public var gyroscopeBiasTime: Double = 1
        /// s; 0 = no periodic statistics line.
        public var logInterval: Double = 10
    }

    /// `recording`.
    public struct Recording: Equatable, Sendable {
        public var ringCapacity = 2048
        /// s.
        public var flushInterval = 0.25
        /// s; 0 = only when the recording ends.
        public var syncInterval: Double = 1
    }

    /// `simulation`.
    public struct Simulation: Equatable, Sendable {
        public enum Plant: String, CaseIterable, Sendable {
            case auto
            case balancingRobot = "balancing_robot"
            case quadrotor, motion
        }
        public var plant = Plant.auto
        /// A `poise synth` preset name.
        public var motion = "demo"
        /// °.
        public var initialTiltDegrees: Double = 5
        /// N·m, s, s.
        public var gustTorque: Double = 0
        public var gustTime: Double = 5
        public var gustDuration = 0.3
        /// When the simulated arming switch turns on and off again (0: never), s.
        public var switchOnSeconds: Double = 1
        public var switchOffSeconds: Double = 0
        public var seed = 1
        public var idealSensor = false
        /// `simulation.faults`, in the order written.
        public var faults: [PoiseConfiguration.Fault] = []
        /// `simulation.balancing_robot` and `simulation.quadrotor`: the plants (PoiseConfiguration+Plants.swift).
        public var balancingRobot = SimulatedBalancingRobot()
        public var quadrotor = SimulatedQuadrotor()
        /// How far the chip's sample clock is off the board's, a fraction; 0: none.
        public var sampleClockError: Double = 0
    }
}

extension PoiseConfiguration.Loop {
    init(_ v: ConfigTable) { self = ConfigBinding.settings(Self.bindings, from: v, base: Self()) }

    static let bindings: [ConfigBinding<Self>] = {
        let d = Self()
        return [
            .number("loop.rate_hz", \.rateHz, range: 1...2000, unit: "Hz", defaults: d,
                    doc: "Tick rate. `poise check` refuses a rate the I²C bus cannot carry (board.i2c_clock_hz)."),
            .integer("loop.overrun_limit", \.overrunLimit, range: 1...1000, defaults: d,
                     doc: "Consecutive overruns (a tick still computing at the next deadline) before the safe state.").live(),
            .integer("loop.realtime_priority", \.realtimePriority, range: 0...99, zeroTurnsOff: true, defaults: d,
                     doc: "SCHED_FIFO priority; 0 leaves normal scheduling. Needs root or CAP_SYS_NICE; without it the loop warns once and runs anyway.").outsideTheTick("the loop thread's scheduling"),
            .integer("loop.cpu", \.cpu, range: -1...1023, defaults: d,
                     doc: "CPU the loop thread is pinned to; -1 lets it run on any.").outsideTheTick("the loop thread's CPU"),
            .boolean("loop.lock_memory", \.lockMemory, defaults: d,
                     doc: "mlockall: keep every page in RAM so no tick waits for a page fault (warns when not permitted).").outsideTheTick("mlockall before the loop starts"),
            .number("loop.gyroscope_bias_time", \.gyroscopeBiasTime, range: 0...60, unit: "s", zeroTurnsOff: true, defaults: d,
                    doc: "Time at start-up, board still, over which the gyroscope bias is measured before arming; 0 uses sensor.calibration.gyroscope_bias as it is."),
            .number("loop.log_interval", \.logInterval, range: 0...3600, unit: "s", zeroTurnsOff: true, defaults: d,
                    doc: "Period of the statistics line in the log; 0 for none.").outsideTheTick("the statistics line"),
        ]
    }()
}

extension PoiseConfiguration.Recording {
    init(_ v: ConfigTable) { self = ConfigBinding.settings(Self.bindings, from: v, base: Self()) }

    static let bindings: [ConfigBinding<Self>] = {
        let d = Self()
        return [
            .integer("recording.ring_capacity", \.ringCapacity, range: 64...1_048_576, unit: "records", defaults: d,
                     doc: "Records the lock-free ring between the tick and the writer holds (2048: 2 s at 1 kHz, about 0.7 MB); a full ring drops records (counted), it never blocks the tick.").outsideTheTick("the recorder's ring"),
            .number("recording.flush_interval", \.flushInterval, range: 0.01...60, unit: "s", defaults: d,
                    doc: "How often the writer hands whole records to the kernel: a killed or crashed process loses at most this much of the recording.").outsideTheTick("the recorder's thread"),
            .number("recording.sync_interval", \.syncInterval, range: 0...3600, unit: "s", zeroTurnsOff: true, defaults: d,
                    doc: "How often the writer asks the kernel to put the recording on the disk (fdatasync): a power cut loses at most about this much more than flush_interval; 0 syncs only at the end (docs/loop.md gives the cost).").outsideTheTick("the recorder's thread"),
        ]
    }()
}

extension PoiseConfiguration.Simulation {
    init(_ v: ConfigTable) { self = ConfigBinding.settings(Self.bindings, from: v, base: Self()) }

    static let bindings: [ConfigBinding<Self>] = {
        let d = Self()
        return [
            .choice("simulation.plant", \.plant, defaults: d,
                    doc: "What the simulated MPU-9250 is fixed to: `auto` picks the plant the controller drives (balance → balancing_robot, quad → quadrotor on a test stand, none → motion).").outsideTheTick("the simulated world"),
            .string("simulation.motion", \.motion, choices: ["demo", "figure-eight", "tumble", "translation", "static"], defaults: d,
                    doc: "Scripted motion for `plant: motion` (the `poise synth` presets), repeated.").outsideTheTick("the simulated world"),
            .number("simulation.initial_tilt_deg", \.initialTiltDegrees, range: -90...90, unit: "°", defaults: d,
                    doc: "Initial tilt of the plant about body x (pitch) at start.").outsideTheTick("the simulated world"),
            .number("simulation.gust_torque", \.gustTorque, range: 0...100, unit: "N·m", zeroTurnsOff: true, defaults: d,
                    doc: "Gust torque about body x applied to the quadrotor once, for gust_duration; 0 for none.").outsideTheTick("the simulated world"),
            .number("simulation.gust_time", \.gustTime, range: 0...3600, unit: "s", defaults: d, doc: "When the gust starts.").outsideTheTick("the simulated world"),
            .number("simulation.gust_duration", \.gustDuration, range: 0...60, unit: "s", defaults: d, doc: "How long the gust lasts.").outsideTheTick("the simulated world"),
            .number("simulation.switch_on_s", \.switchOnSeconds, range: 0...3600, unit: "s", defaults: d,
                    doc: "When the simulated arming switch turns on (`safety.arm_source: switch` on the sim board); it is off before.").outsideTheTick("the simulated world's arming switch"),
            .number("simulation.switch_off_s", \.switchOffSeconds, range: 0...3600, unit: "s", zeroTurnsOff: true, defaults: d,
                    doc: "When the simulated arming switch turns off again; 0 never.").outsideTheTick("the simulated world's arming switch"),
            .integer("simulation.seed", \.seed, range: 0...Int(Int32.max), defaults: d,
                     doc: "Seed of the simulated sensor's noise: the same seed gives the same run.").outsideTheTick("the simulated world"),
            .choice("simulation.sensor_errors", \.idealSensor, [(word: "typical", value: false), (word: "ideal", value: true)], defaults: d,
                    doc: "`typical`: a calibrated MPU-9250's noise, bias and scale errors; `ideal`: exact readings.").outsideTheTick("the simulated world"),
            .list("simulation.faults", \.faults, of: PoiseConfiguration.Fault.bindings, base: PoiseConfiguration.Fault(),
                  doc: "Faults to rehearse on the simulated board (`board.kind: sim`), by `poise run` and `poise simulate` alike; docs/simulation.md says what each does and docs/safety.md how the loop answers.").outsideTheTick("the simulated world"),
        ] + plantBindings
    }()
}
