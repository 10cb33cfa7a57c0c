/// What a world with wheels tells its encoders and the drive report; worlds without wheels
/// keep these defaults.
extension SimulatedWorld {
    /// Each wheel's angle relative to the body, rad, positive rolling forward; nil: no wheels.
    public var wheelAngles: (left: Double, right: Double)? { nil }
    /// True forward speed, m/s; NaN: the world does not drive.
    public var forwardSpeed: Double { .nan }
    /// When and why the plant's integration broke down; nil: it holds (a scripted motion always does).
    public var divergence: PlantDivergence? { nil }
    /// Times a wheel's drive changed direction, both wheels together; 0: no wheels.
    public var driveReversals: Int { 0 }
}

extension BalancingRobotWorld {
    public var wheelAngles: (left: Double, right: Double)? { plant.wheelAngles }
    public var forwardSpeed: Double { plant.speed }
    public var divergence: PlantDivergence? { plant.divergence }
    public var driveReversals: Int { reversals }
}

extension QuadrotorWorld {
    public var divergence: PlantDivergence? { plant.divergence }
}
