import PoiseControl

/// A balancing robot's driving in one tick, for the record: what it was asked, what the
/// controller made of it, and (in simulation) what the robot truly did.
@frozen
public struct DriveRecord: Sendable, BitwiseCopyable {
    /// The drive setpoint the loop handed the tick.
    public var setpoint: DriveSetpoint
    /// The speed setpoint after the acceleration limit, m/s, and its rate, m/s².
    public var commandedSpeed: Float
    public var commandedAcceleration: Float
    /// The controller's forward speed estimate, m/s.
    public var speedEstimate: Float
    /// The lean the setpoint asks for (trim plus the lean into the commanded acceleration), rad, as pitch.
    public var leanSetpoint: Float
    /// The simulated robot's true forward speed, m/s (NaN on a real board).
    public var trueSpeed: Float

    @inlinable
    public init() {
        setpoint = DriveSetpoint()
        commandedSpeed = 0
        commandedAcceleration = 0
        speedEstimate = 0
        leanSetpoint = 0
        trueSpeed = .nan
    }
}
