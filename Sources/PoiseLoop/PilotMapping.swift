import PoiseControl
import PoiseTelemetry

/// A pilot's sticks (``ManualControl``) as the setpoints each controller follows.
///
/// Full stick is: `input.sticks.max_tilt_deg` of pitch or roll and the quad's
/// `controller.quad.max_yaw_rate_dps` of yaw rate on the quad stand;
/// `input.sticks.max_speed_m_s` and `input.sticks.max_turn_rate_dps` on the balancing robot
/// (``StickScales``). Throttle is the stick's 0…1. Signs: forward stick (x > 0) pitches the nose down / drives forward; right
/// stick (y > 0) rolls right; twist right (r > 0, MAVLink's clockwise) turns clockwise, which
/// is a negative rate about Poise's up axis.
@frozen
public struct PilotMapping: Sendable {
    public var scales = StickScales()
    public var maxYawRate: Float = Float(90 * Double.pi / 180)

    @inlinable
    public init() {}

    /// The quad stand's setpoint: attitude and yaw rate from the sticks, heading kept.
    @inlinable
    public func quad(_ c: ManualControl, base: QuadSetpoint) -> QuadSetpoint {
        var s = base
        s.thrust = max(0, min(1, c.z))
        s.pitch = -clamp(c.x) * scales.maxTilt
        s.roll = clamp(c.y) * scales.maxTilt
        s.yawRate = -clamp(c.r) * maxYawRate
        return s
    }

    /// The balancing robot's drive setpoint (forward speed, turn rate), which the loop hands the
    /// balance controller in place of the drive script's while the sticks are fresh.
    @inlinable
    public func drive(_ c: ManualControl) -> DriveSetpoint {
        DriveSetpoint(speed: clamp(c.x) * scales.maxSpeed, turnRate: -clamp(c.r) * scales.maxTurnRate)
    }

    @inlinable
    func clamp(_ v: Float) -> Float { v.isFinite ? max(-1, min(1, v)) : 0 }

    /// MANUAL_CONTROL's ±1000 (throttle 0…1000) as ±1 (0…1); an axis sent as INT16_MAX
    /// ("not used") is 0.
    public static func control(_ m: ManualControlMessage) -> ManualControl {
        func axis(_ v: Int16) -> Float { v == .max ? 0 : Float(v) / 1000 }
        return ManualControl(x: axis(m.x), y: axis(m.y), z: axis(m.z), r: axis(m.r),
                             buttons: UInt32(m.buttons) | UInt32(m.buttons2) << 16)
    }
}

/// What the tick remembers of the pilot's setpoints: whether any came, when the newest arrived.
@frozen
public struct PilotState: Sendable {
    public var control = ManualControl()
    /// The sender's time stamp of the newest (changes with every new one).
    public var stamp: Double = .nan
    /// Loop time of the first tick that saw the newest, s.
    public var arrival: Double = 0
    /// When the newest was received, s on the loop's clock (the stamp less the clock's origin):
    /// recorded, so a recording shows how many ticks a setpoint took to reach the outputs.
    public var receivedTime: Double = .nan
    public var received = false

    @inlinable
    public init() {}
}
