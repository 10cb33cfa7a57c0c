/// What a balancing robot is asked to do: drive forward at a speed and turn at a rate.
/// Comes from a drive script (`controller.balance.setpoint_file`) or a live source (the
/// ground station's MANUAL_CONTROL, a gamepad); zero is "stand still".
@frozen
public struct DriveSetpoint: Sendable, Equatable, BitwiseCopyable {
    /// Forward speed along body +y, m/s.
    public var speed: Float
    /// Turn rate about the world's vertical, rad/s (positive turns left, counter-clockwise from above).
    public var turnRate: Float

    @inlinable
    public init(speed: Float = 0, turnRate: Float = 0) {
        self.speed = speed
        self.turnRate = turnRate
    }
}
