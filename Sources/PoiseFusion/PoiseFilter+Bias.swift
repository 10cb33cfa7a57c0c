import PoiseMath

/// Kalman filter on the gyroscope bias for `PoiseFilter`.
///
/// The state is the bias `b` (rad/s, body frame) with covariance `P`. The bias is modelled as a
/// slow random walk (process noise set by the forgetting time). Measurements are scalar and
/// independent, so they are applied one at a time — no matrix inverse, and each update keeps
/// `P` symmetric by construction. Covariances are kept in (°/s)² so that every number is of
/// order one in Float.
@frozen
public struct PoiseFilterBiasEstimator: Sendable {
    /// Estimated bias, rad/s.
    public var bias: SIMD3<Float>
    /// Covariance columns, (°/s)².
    @usableFromInline var p0, p1, p2: SIMD3<Float>
    /// Initial (and largest) variance, (°/s)².
    @usableFromInline let initialVariance: Float
    /// Variance added per second, (°/s)²/s.
    @usableFromInline let varianceGrowth: Float
    /// Per-axis bound on the bias and on a residual, rad/s.
    @usableFromInline let limit: Float

    @inlinable static var degrees: Float { 180 / .pi }
    @inlinable static var radians: Float { .pi / 180 }

    @inlinable
    public init(initialUncertainty: Float, forgettingTime: Float, limit: Float) {
        let sigma = initialUncertainty * Self.degrees
        initialVariance = max(sigma * sigma, 1e-12)
        // The bias may wander by a fifth of its initial uncertainty per forgetting time.
        let wander = sigma / 5
        varianceGrowth = forgettingTime > 0 ? wander * wander / forgettingTime : 0
        self.limit = max(limit, 0)
        bias = .zero
        p0 = SIMD3(initialVariance, 0, 0)
        p1 = SIMD3(0, initialVariance, 0)
        p2 = SIMD3(0, 0, initialVariance)
    }

    /// One-sigma uncertainty of the bias, rad/s (root of the largest diagonal element).
    @inlinable
    public var uncertainty: Float {
        squareRoot(max(p0.x, max(p1.y, p2.z))) * Self.radians
    }

    /// Adds the random-walk process noise for a step of `dt` seconds.
    @inlinable @inline(__always)
    public mutating func predict(dt: Float) {
        let q = varianceGrowth * dt
        p0.x = min(p0.x + q, initialVariance)
        p1.y = min(p1.y + q, initialVariance)
        p2.z = min(p2.z + q, initialVariance)
    }

    /// Applies the scalar measurement `z = h·b + noise` (z in rad/s, `variance` in (°/s)²).
    @inlinable @inline(__always)
    public mutating func update(h: SIMD3<Float>, measurement z: Float, variance: Float) {
        let ph = p0 * h.x + p1 * h.y + p2 * h.z         // P h
        let s = dot(h, ph) + variance
        guard s > 0 else { return }
        var residual = (z - dot(h, bias)) * Self.degrees
        residual = min(max(residual, -limit * Self.degrees), limit * Self.degrees)
        let k = ph * (1 / s)
        bias += k * (residual * Self.radians)
        bias = Self.clamped(bias, limit)
        p0 -= k * ph.x
        p1 -= k * ph.y
        p2 -= k * ph.z
        // Guard the diagonal against round-off.
        p0.x = max(p0.x, 1e-9)
        p1.y = max(p1.y, 1e-9)
        p2.z = max(p2.z, 1e-9)
    }

    /// Resets the estimate to zero with the initial uncertainty.
    @inlinable
    public mutating func reset() {
        bias = .zero
        p0 = SIMD3(initialVariance, 0, 0)
        p1 = SIMD3(0, initialVariance, 0)
        p2 = SIMD3(0, 0, initialVariance)
    }
}

extension PoiseFilterBiasEstimator {
    /// `v` with each component limited to ±`limit`.
    @inlinable @inline(__always)
    static func clamped(_ v: SIMD3<Float>, _ limit: Float) -> SIMD3<Float> {
        // Comparisons and selects per lane (NaN stays NaN, so the caller's finiteness check
        // still sees it).
        SIMD3(clamped(v.x, limit), clamped(v.y, limit), clamped(v.z, limit))
    }

    @inlinable @inline(__always)
    static func clamped(_ x: Float, _ limit: Float) -> Float {
        x > limit ? limit : (x < -limit ? -limit : x)
    }
}
