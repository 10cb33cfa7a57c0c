import PoiseMath

/// Online estimate of how much older a magnetometer reading is than the gyroscope reading it
/// arrives with.
///
/// Magnetometers measure slower than gyroscopes and deliver what they measured some
/// milliseconds ago (an AK8963 at 100 Hz: up to 10 ms between measurements plus 7–9 ms of
/// measuring). A reading `L` seconds old, seen through the current attitude, is the earth's
/// field turned by the rotation since: `f ≈ h + L·(ω × h)` in the earth frame, with `ω` the
/// world-frame rate. At 500 °/s, 10 ms turns the field 5° — as much heading error as a
/// passing magnet — and tilts its dip, so the disturbance test rejects good readings.
///
/// `L` is the slope of a least-squares fit of the field's fast changes against `ω × h`. Both
/// are high-passed first (their 1 s low-pass is taken off), which removes the earth's field,
/// the filter's own slow heading error and any steady turning, during which latency cannot
/// be told from a heading offset. The sums are forgotten over `forgettingTime`, and the fit
/// starts from a prior of one second of 1 rad/s turning at the initial latency. Readings the
/// disturbance test rejects are left out.
///
/// One observation per `observationInterval` (25 Hz, like the bias step) keeps the cost
/// independent of the sample rate. The observations keep to a fixed grid in time: restarting
/// the interval at each one picks, among irregularly spaced readings, those after the longer
/// gaps, and on BROAD that biased the estimate by 2 ms.
@frozen
public struct MagnetometerLatencyEstimator: Sendable {
    /// Latency in use, s: the reading is corrected by `latency · (m × ω)` in the body frame.
    public var latency: Float { storedLatency }
    @usableFromInline var storedLatency: Float
    /// Whether the latency is learned (otherwise it stays at its initial value).
    public let enabled: Bool
    /// The field (µT) and the regressor `ω × field` (µT/s), first-order low-passed.
    @usableFromInline var slowField: SIMD3<Float>
    @usableFromInline var slowRegressor: SIMD3<Float>
    /// Forgotten sum of the squared high-passed regressor, (µT/s)²·s.
    @usableFromInline var information: Float
    /// Time since the last observation, s.
    @usableFromInline var elapsed: Float
    @usableFromInline var started: Bool
    @usableFromInline let inverseForgettingTime: Float

    /// Bounds on the latency, s: a reading up to 50 ms late, or (when the gyroscope's own
    /// low-pass delays it more) up to 20 ms early.
    @inlinable static var range: ClosedRange<Float> { -0.02...0.05 }
    @inlinable static var observationInterval: Float { 0.04 }
    @inlinable static var highPassTime: Float { 1 }
    /// One second of 1 rad/s turning in a 50 µT field, (µT/s)²·s.
    @inlinable static var priorInformation: Float { 2500 }

    /// `latency` in s (the initial value, or the fixed one when not `enabled`);
    /// `forgettingTime` in s.
    @inlinable
    public init(latency: Float, enabled: Bool, forgettingTime: Float = 60) {
        storedLatency = min(max(latency.isFinite ? latency : 0, Self.range.lowerBound),
                           Self.range.upperBound)
        self.enabled = enabled
        slowField = .zero
        slowRegressor = .zero
        information = Self.priorInformation
        elapsed = 0
        started = false
        inverseForgettingTime = 1 / max(forgettingTime, 1)
    }

    /// The reading `m` (µT, body frame, offset removed) corrected to the gyroscope's time, for
    /// the body rate `rate` (rad/s).
    @inlinable @inline(__always)
    public func corrected(_ m: SIMD3<Float>, rate: SIMD3<Float>) -> SIMD3<Float> {
        m + latency * cross(m, rate)
    }

    /// Observes one corrected reading `field` in the earth frame (µT), `dt` seconds after the
    /// previous one, at the body rate `rate` (rad/s) and the body-to-earth `attitude`.
    @inlinable @inline(__always)
    public mutating func observe(field: SIMD3<Float>, rate: SIMD3<Float>, attitude: Quaternion,
                                 dt: Float) {
        guard enabled else { return }
        elapsed += dt
        guard elapsed >= Self.observationInterval else { return }
        let step = Self.observationInterval
        elapsed -= step
        let regressor = cross(attitude.rotate(rate), field)
        guard started else {
            slowField = field
            slowRegressor = regressor
            started = true
            return
        }
        let k = min(step / Self.highPassTime, 1)
        slowField += k * (field - slowField)
        slowRegressor += k * (regressor - slowRegressor)
        let residual = field - slowField, r = regressor - slowRegressor
        // A reading L late shows the field turned back by the rotation since, L·(ω × h); the
        // corrected one leaves (L − latency)·r. One step of recursive least squares.
        information = information * (1 - min(step * inverseForgettingTime, 1)) + dot(r, r) * step
        storedLatency += dot(r, residual) * step / information
        storedLatency = min(max(storedLatency, Self.range.lowerBound), Self.range.upperBound)
    }
}
