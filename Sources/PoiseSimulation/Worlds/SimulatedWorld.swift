import PoiseMath

/// What the simulated MPU-9250 is fixed to: a plant driven by the outputs (a balancing
/// robot, a quadrotor on a stand) or a scripted motion. The simulated board advances it each
/// tick with what the output hardware shows, then lets the chip measure its motion.
public protocol SimulatedWorld {
    /// Moves the world to `time` (s) under the actuator signals of the last tick.
    mutating func advance(to time: Double, outputs: ChannelReadback, wiring: ActuatorWiring)
    /// What an ideal IMU on the plant measures now.
    var motion: HeldMotion { get }
    /// The true body-to-ENU attitude now.
    var truth: Quaternion { get }
    /// The loop armed: the hand that held the plant at its start pose lets go.
    mutating func release()
    /// Each wheel's angle relative to the body, rad (SimulatedWorld+Wheels.swift); nil: no wheels.
    var wheelAngles: (left: Double, right: Double)? { get }
    /// True forward speed, m/s; NaN: the world does not drive.
    var forwardSpeed: Double { get }
    /// When and why the plant's integration broke down (SimulatedWorld+Wheels.swift); nil: it holds.
    var divergence: PlantDivergence? { get }
    /// Times a wheel's drive changed direction since release, both wheels together
    /// (SimulatedWorld+Wheels.swift); 0 without wheels.
    var driveReversals: Int { get }
}

/// A `poise synth` motion, repeated: the attitude-only world (no outputs move it).
public struct ScriptedWorld: SimulatedWorld {
    public var plant: ScriptedMotionPlant

    public init(plant: ScriptedMotionPlant) { self.plant = plant }

    public mutating func advance(to time: Double, outputs: ChannelReadback, wiring: ActuatorWiring) {
        plant.advance(to: time)
    }

    public var motion: HeldMotion { plant.motion }
    public var truth: Quaternion { plant.attitude }
    public mutating func release() {}
}
