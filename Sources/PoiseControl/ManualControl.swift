/// One reading of a pilot's sticks, normalised the way MAVLink's MANUAL_CONTROL carries them
/// (its ±1000 scaled to ±1). The ground station's MANUAL_CONTROL and a gamepad both produce
/// it; the loop turns it into a ``QuadSetpoint`` or a ``DriveSetpoint``.
@frozen
public struct ManualControl: Sendable, Equatable, BitwiseCopyable {
    /// Forward stick: pitch forward on a quadrotor, forward speed on a robot, −1…1.
    public var x: Float
    /// Sideways stick: roll right on a quadrotor, −1…1.
    public var y: Float
    /// Throttle, 0…1.
    public var z: Float
    /// Twist stick: yaw rate, turn rate on a robot, −1…1 (positive turns right, as MAVLink).
    public var r: Float
    /// Buttons, bit n set while button n is held.
    public var buttons: UInt32

    @inlinable
    public init(x: Float = 0, y: Float = 0, z: Float = 0, r: Float = 0, buttons: UInt32 = 0) {
        self.x = x
        self.y = y
        self.z = z
        self.r = r
        self.buttons = buttons
    }
}
