/// What full stick means when a pilot's sticks (``ManualControl``) become setpoints: the
/// `input.sticks.*` keys bind straight to these fields, so each default is written here only.
/// The ground station's MANUAL_CONTROL and the gamepad share them.
@frozen
public struct StickScales: Sendable, Equatable, BitwiseCopyable {
    /// The quad stand's pitch and roll at full forward or sideways stick, rad.
    public var maxTilt: Float = Float(15 * Double.pi / 180)
    /// The balancing robot's forward speed at full forward stick, m/s.
    public var maxSpeed: Float = 0.5
    /// The balancing robot's turn rate at full twist, rad/s.
    public var maxTurnRate: Float = Float(90 * Double.pi / 180)

    @inlinable
    public init() {}
}
