extension PoiseConfiguration {
    /// `loop`.
    public struct Loop: Equatable, Sendable {
        /// Hz.
        public var rateHz: Double
        public var overrunLimit: Int
        /// SCHED_FIFO priority; 0 = normal scheduling.
        public var realtimePriority: Int
        /// −1 = any CPU.
        public var cpu: Int
        public var lockMemory: Bool
        /// s; 0 = take the configured calibration as it is.
        public var gyroscopeBiasTime: Double
        /// s; 0 = no periodic statistics line.
        public var logInterval: Double

        init(_ v: ConfigTable) {
            rateHz = v.number("loop.rate_hz")
            overrunLimit = v.integer("loop.overrun_limit")
            realtimePriority = v.integer("loop.realtime_priority")
            cpu = v.integer("loop.cpu")
            lockMemory = v.boolean("loop.lock_memory")
            gyroscopeBiasTime = v.number("loop.gyroscope_bias_time")
            logInterval = v.number("loop.log_interval")
        }
    }

    /// `recording`.
    public struct Recording: Equatable, Sendable {
        public var ringCapacity: Int
        /// s.
        public var flushInterval: Double
        /// s; 0 = only when the recording ends.
        public var syncInterval: Double

        init(_ v: ConfigTable) {
            ringCapacity = v.integer("recording.ring_capacity")
            flushInterval = v.number("recording.flush_interval")
            syncInterval = v.number("recording.sync_interval")
        }
    }

    /// `simulation`.
    public struct Simulation: Equatable, Sendable {
        public enum Plant: String, CaseIterable, Sendable {
            case auto
            case balancingRobot = "balancing_robot"
            case quadrotor, motion
        }
        public var plant: Plant
        /// A `poise synth` preset name.
        public var motion: String
        /// °.
        public var initialTiltDegrees: Double
        /// N·m, s, s.
        public var gustTorque: Double
        public var gustTime: Double
        public var gustDuration: Double
        public var seed: Int
        public var idealSensor: Bool
        /// When the simulated arming switch turns on and off again (0: never), s.
        public var switchOnSeconds: Double
        public var switchOffSeconds: Double
        /// `simulation.faults`, in the order written.
        public var faults: [PoiseConfiguration.Fault]

        init(_ v: ConfigTable) {
            plant = v.choice("simulation.plant")
            motion = v.string("simulation.motion")
            initialTiltDegrees = v.number("simulation.initial_tilt_deg")
            gustTorque = v.number("simulation.gust_torque")
            gustTime = v.number("simulation.gust_time")
            gustDuration = v.number("simulation.gust_duration")
            seed = v.integer("simulation.seed")
            idealSensor = v.string("simulation.sensor_errors") == "ideal"
            switchOnSeconds = v.number("simulation.switch_on_s")
            switchOffSeconds = v.number("simulation.switch_off_s")
            faults = Self.faults(v)
        }
    }
}
