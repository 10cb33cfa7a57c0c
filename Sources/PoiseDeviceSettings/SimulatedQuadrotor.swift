// The simulated quadrotor on its test stand as a user describes it (`simulation.quadrotor.*`),
// below the configuration so the keys bind straight to these fields and the plant is built
// from them: each default is written here only. The defaults are a ≈ 250 mm quad.

/// A quadrotor: inertia, arms, motors and propellers as measured or read off datasheets
/// (docs/simulation.md says how), and the imperfections of a real one, each 0 (off) by
/// default. SI units.
public struct SimulatedQuadrotor: Sendable, Equatable {
    /// All-up mass, kg. The stand turns the quad about its centre of mass, so the mass does not
    /// enter its rotation; the configuration checks that four motors can lift it.
    public var mass = 0.5
    /// Principal moments of inertia about body x, y, z, kg·m².
    public var inertia = SIMD3<Double>(2.5e-3, 2.5e-3, 4.5e-3)
    /// Centre to each motor's axis, m.
    public var armLength = 0.088
    /// Thrust of one motor at full throttle, N (thrust grows with throttle²).
    public var maximumThrust = 4.0
    /// Motor + propeller time constant from throttle to thrust, s.
    public var motorTimeConstant = 0.03
    /// Reaction torque per newton of thrust, m.
    public var torqueCoefficient = 0.016
    /// Rotational drag, N·m per rad/s (air and the stand's bearings).
    public var rotationalDrag = 0.002
    /// Rotor speed at full throttle, rad/s (rotor speed grows with throttle): sets the
    /// frequency of the vibration.
    public var maximumRotorSpeed = 2000.0

    // Imperfections: 0 is off.

    /// Where the IMU is off the stand's pivot (the centre of mass), body frame, m.
    public var imuOffset = SIMD3<Double>(0, 0, 0)
    /// Time from the loop's output to the ESCs acting on it, s.
    public var actuatorDelay = 0.0
    /// Accelerometer vibration of one rotor at full speed (fundamental), m/s².
    public var vibrationAcceleration = 0.0
    /// Gyroscope vibration of one rotor at full speed (fundamental), rad/s.
    public var vibrationRate = 0.0
    /// Harmonics of the rotation frequency in the vibration (1: the fundamental only).
    public var vibrationHarmonics = 3

    public init() {}
}
