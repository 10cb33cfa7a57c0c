/// Which quadrotor frame the mixer drives, with ArduPilot's motor numbering.
///
/// Body axes as Core Motion's device frame: x right, y forward, z up. "CCW" is the
/// propeller's spin seen from above; its reaction torque turns the frame clockwise.
public enum QuadFrame: String, Sendable, CaseIterable {
    /// X: motor 1 front-right (CCW), 2 back-left (CCW), 3 front-left (CW), 4 back-right (CW).
    case x
    /// +: motor 1 right (CCW), 2 left (CCW), 3 front (CW), 4 back (CW).
    case plus

    /// Each motor's share of a pitch torque demand (about body x; positive raises the nose),
    /// of a roll demand (about body y; positive lowers the right side) and of a yaw demand
    /// (about z; positive turns counter-clockwise seen from above).
    @inlinable
    public var factors: (pitch: SIMD4<Float>, roll: SIMD4<Float>, yaw: SIMD4<Float>) {
        // A thrust T at (px, py) gives the torque (py·T, −px·T, 0): front motors raise the
        // nose (+pitch), left motors lower the right side (+roll). CW props react CCW (+yaw).
        switch self {
        case .x:
            let h: Float = 0.5
            return (pitch: SIMD4(h, -h, h, -h), roll: SIMD4(-h, h, h, -h), yaw: SIMD4(-h, -h, h, h))
        case .plus:
            return (pitch: SIMD4(0, 0, 0.5, -0.5), roll: SIMD4(-0.5, 0.5, 0, 0), yaw: SIMD4(-0.5, -0.5, 0.5, 0.5))
        }
    }
}

/// Turns a collective thrust and three torque demands into four motor throttles, keeping
/// attitude authority under saturation as ArduPilot's mixer does:
///
/// 1. Roll and pitch come first: if their spread alone exceeds the throttle range, they are
///    scaled down together (the attitude demand keeps its direction).
/// 2. Collective thrust is moved next: the whole set is shifted so it fits in 0…1.
/// 3. Yaw is reduced last-but-one: if roll + pitch + yaw spread over more than the range,
///    yaw is scaled down until it fits.
///
/// The result is mapped onto `idle…1` while armed (props keep spinning at idle so the
/// motors answer fast), and is exactly 0 while disarmed.
@frozen
public struct MotorMixer: Sendable {
    public var frame: QuadFrame
    /// Throttle of a spinning motor at zero demand while armed, 0…1.
    public var idleThrottle: Float

    @inlinable
    public init(frame: QuadFrame, idleThrottle: Float = 0.08) {
        self.frame = frame
        self.idleThrottle = idleThrottle
    }

    /// Motor throttles 0…1 (idle…1 when armed). Demands are in throttle units: a pitch demand
    /// of 1 spreads the front and back motors a whole throttle range apart.
    @inlinable
    public func mix(thrust: Float, pitch: Float, roll: Float, yaw: Float, armed: Bool) -> SIMD4<Float> {
        guard armed, thrust.isFinite, pitch.isFinite, roll.isFinite, yaw.isFinite else { return .zero }
        let f = frame.factors
        var attitude = f.pitch * pitch + f.roll * roll
        let attitudeSpread = attitude.max() - attitude.min()
        if attitudeSpread > 1 { attitude /= attitudeSpread }
        // Yaw gets whatever spread is left: the largest k in [0, 1] with spread(att + k·yaw) ≤ 1.
        let yawShare = f.yaw * yaw
        var k: Float = 1
        if spread(attitude + yawShare) > 1 {
            var low: Float = 0, high: Float = 1
            for _ in 0..<20 {
                let mid = (low + high) / 2
                if spread(attitude + yawShare * mid) > 1 { high = mid } else { low = mid }
            }
            k = low
        }
        let differential = attitude + yawShare * k
        // Collective thrust moves so the whole set fits in 0…1.
        let lowest = -differential.min(), highest = 1 - differential.max()
        let collective = max(lowest, min(highest, max(0, min(1, thrust))))
        let unit = (differential + collective).clamped(lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 1))
        return SIMD4(repeating: idleThrottle) + unit * (1 - idleThrottle)
    }

    @inlinable
    func spread(_ v: SIMD4<Float>) -> Float { v.max() - v.min() }
}
