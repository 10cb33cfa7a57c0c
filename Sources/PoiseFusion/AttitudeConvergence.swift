import PoiseMath

/// Whether a filter's attitude is established, and what establishes it again once lost.
///
/// A gyroscope that clipped, a loop that stalled or outputs that failed safe (a fall, a flip)
/// leave an integrated attitude that may be wrong by any amount, and only gravity can show it:
/// the estimate counts as converged again once the accelerometer's direction has agreed with
/// the estimate's "up" within ``tolerance`` at every sample for ``holdTime`` while the sensor
/// is near rest — turning slower than ``quietRate`` with a specific force within
/// ``quietNormTolerance`` of gravity, so that what the accelerometer measures is gravity and
/// not a linear acceleration (a linear acceleration of a m/s² sustained, without rotation,
/// for the whole hold is indistinguishable from tilt, as for any accelerometer-only attitude;
/// near rest it would have to move the sensor by a·0.125 m in those 0.5 s).
///
/// One Float of state; one comparison per sample while converged.
@frozen
public struct AttitudeConvergence: Sendable, Equatable {
    /// How long the accelerometer has agreed with the estimate near rest without a break, s;
    /// converged from ``holdTime`` on (infinite from start: start-up is `initialising`'s
    /// business).
    public var agreementTime: Float = .infinity

    @inlinable public init() {}

    /// The attitude is established.
    @inlinable public var isConverged: Bool { agreementTime >= Self.holdTime }

    /// Largest angle between the accelerometer and the estimate's up that counts as agreeing,
    /// rad (2°: a few times one sample's direction noise on a MEMS accelerometer at rest, well
    /// inside the 5° that matters for arming).
    @inlinable public static var tolerance: Float { 2 * .pi / 180 }
    /// How long the agreement must hold, s.
    @inlinable public static var holdTime: Float { 0.5 }
    /// Fastest rotation that counts as near rest, rad/s (10 °/s: above any MEMS bias).
    @inlinable public static var quietRate: Float { 10 * .pi / 180 }
    /// Largest difference between |a| and gravity that counts as near rest, as a fraction of
    /// gravity (5 %: more than an uncalibrated accelerometer's scale error).
    @inlinable public static var quietNormTolerance: Float { 0.05 }

    /// Forgets that the attitude was established.
    @inlinable
    public mutating func lose() {
        agreementTime = 0
    }

    /// Whether the specific force `a` (m/s²) and the rate `gyroscope` (rad/s) are those of a
    /// sensor near rest under gravity `gravity` (m/s²).
    @inlinable @inline(__always)
    public static func isQuiet(accelerometer a: SIMD3<Float>, gyroscope: SIMD3<Float>, gravity: Float) -> Bool {
        let norm2 = dot(a, a)
        let low = gravity * (1 - quietNormTolerance), high = gravity * (1 + quietNormTolerance)
        return dot(gyroscope, gyroscope) < quietRate * quietRate && norm2 > low * low && norm2 < high * high
    }

    /// One sample while not converged: `up` is the estimate's world up in the body frame (unit).
    /// Returns whether the attitude is converged after it.
    @inlinable @inline(__always)
    public mutating func observe(accelerometer a: SIMD3<Float>, gyroscope: SIMD3<Float>, up: SIMD3<Float>,
                                 gravity: Float, dt: Float) -> Bool {
        // cos(angle) ≥ cos(tolerance), squared to avoid a root: a·up ≥ 0 and (a·up)² ≥ c²|a|².
        let along = dot(a, up)
        let c = Self.cosineTolerance
        if Self.isQuiet(accelerometer: a, gyroscope: gyroscope, gravity: gravity),
           along > 0, along * along >= c * c * dot(a, a) {
            agreementTime += dt
        } else {
            agreementTime = 0
        }
        return isConverged
    }

    /// cos(2°).
    @inlinable static var cosineTolerance: Float { 0.99939083 }

    /// One sample while not converged, for a filter that keeps no state of its own for this;
    /// `attitude` is body-to-world.
    @inlinable @inline(__always)
    public mutating func update(_ sample: InertialSample, attitude: Quaternion, dt: Float) {
        guard !isConverged, dt > 0, sample.accelerometer == sample.accelerometer else { return }
        _ = observe(accelerometer: sample.accelerometer, gyroscope: sample.gyroscope,
                    up: Self.bodyUp(attitude), gravity: 9.81, dt: dt)
    }

    /// World up (z) in the body frame for the body-to-world `q`: the third row of its matrix.
    @inlinable @inline(__always)
    public static func bodyUp(_ q: Quaternion) -> SIMD3<Float> {
        SIMD3(2 * (q.x * q.z - q.w * q.y), 2 * (q.y * q.z + q.w * q.x),
              q.w * q.w - q.x * q.x - q.y * q.y + q.z * q.z)
    }

    /// `flags` with `notConverged` added while the attitude is not established.
    @inlinable @inline(__always)
    public func marking(_ flags: FilterFlags) -> FilterFlags {
        isConverged ? flags : flags.union(.notConverged)
    }
}
