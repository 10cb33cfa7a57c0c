// The simulated balancing robot as a user describes it (`simulation.balancing_robot.*`), a
// plain value type below the configuration: the keys bind straight to these fields
// (PoiseConfig) and the plant (PoiseSimulation) is built from them, so each default is
// written here only. The defaults are the small hobby robot the plant has always been.

/// A two-wheeled balancing robot: masses, lengths, motors and battery as measured on the
/// bench or read off datasheets (docs/simulation.md says how), and the imperfections of a real
/// one, each 0 (off) by default. SI units; angles in radians.
public struct SimulatedBalancingRobot: Sendable, Equatable {
    /// Body mass without the wheels, kg.
    public var bodyMass = 0.9
    /// Mass of one wheel (with its tyre and hub), kg.
    public var wheelMass = 0.03
    /// Height of the body's centre of mass above the axle, m.
    public var centreOfMassHeight = 0.09
    /// Body moment of inertia about its centre of mass, pitch axis, kg·m².
    public var bodyInertia = 0.004
    /// Body moment of inertia about the vertical, kg·m².
    public var bodyYawInertia = 0.003
    /// Wheel radius, m.
    public var wheelRadius = 0.034
    /// Distance between the wheels' contact points, m.
    public var wheelBase = 0.16
    /// The bare motor (before the gearbox): stall torque at `motorRatedVoltage`, N·m.
    public var motorStallTorque = 0.0081
    /// The bare motor's no-load speed at `motorRatedVoltage`, rad/s.
    public var motorNoLoadSpeed = 1400.0
    /// The voltage the motor's stall torque and no-load speed are given at, V.
    public var motorRatedVoltage = 6.3
    /// Gearbox ratio, motor turns per wheel turn.
    public var gearRatio = 30.0
    /// Viscous friction of gearbox and bearings, at the wheel, N·m·s/rad.
    public var viscousFriction = 0.0005
    /// Height of the IMU above the axle on the body's centre line, m.
    public var imuHeight = 0.06
    /// Open-circuit battery voltage, the motor driver's supply, V.
    public var batteryVoltage = 7.4
    /// Battery internal resistance (plus wiring), Ω; 0: a stiff supply that never sags.
    public var batteryResistance = 0.0

    // Imperfections: 0 is off.

    /// Drive (a fraction of full) below which the motor driver does not switch on.
    public var motorDeadband = 0.0
    /// Static (Coulomb) friction of motor and gearbox, at the wheel, N·m.
    public var staticFriction = 0.0
    /// Gear backlash: the free play of the wheel against the motor, rad.
    public var backlash = 0.0
    /// Where the IMU is off its place on the centre line (`imuHeight` above the axle), body
    /// frame (x along the axle, y forward, z up the body), m.
    public var imuOffset = SIMD3<Double>(0, 0, 0)
    /// Time from the loop's output to the motors' terminals, s.
    public var actuatorDelay = 0.0

    public init() {}

    /// Torque constant = back-EMF constant of the bare motor, N·m/A = V·s/rad: the rated
    /// voltage over the no-load speed (no current flows at no load).
    public var motorConstant: Double { motorRatedVoltage / motorNoLoadSpeed }
    /// Terminal resistance, Ω: the rated voltage over the stall current (stall torque over
    /// the torque constant).
    public var motorResistance: Double { motorConstant * motorRatedVoltage / motorStallTorque }
}
