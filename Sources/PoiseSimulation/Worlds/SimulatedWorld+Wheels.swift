/// What a world with wheels tells its encoders and the drive report; worlds without wheels
/// keep these defaults.
extension SimulatedWorld {
    /// Each wheel's angle relative to the body, rad, positive rolling forward; nil: no wheels.
    public var wheelAngles: (left: Double, right: Double)? { nil }
    /// True forward speed, m/s; NaN: the world does not drive.
    public var forwardSpeed: Double { .nan }
}

extension BalancingRobotWorld {
    public var wheelAngles: (left: Double, right: Double)? { plant.wheelAngles }
    public var forwardSpeed: Double { plant.speed }
}
