import PoiseMath

/// Kalman filter on the gyroscope's bias and scale-factor errors for `PoiseFilter`.
///
/// The gyroscope reads `(1 + s) ⊙ ω + b`: a bias `b` (rad/s) and a per-axis scale-factor
/// error `s` (MEMS gyroscopes are specified to a few per cent). Turning a full circle about an
/// axis with a 0.35 % error leaves 1.3° of attitude error, so during long turns the scale
/// error, not the bias, is what drifts. The state is `b` in °/s (lanes 0–2) and `s` in per cent
/// (lanes 3–5), so that every number is of order one in Float, with covariance `P` (one column
/// per state). Both are modelled as slow random walks. Measurements are scalar and independent,
/// so they are applied one at a time — no matrix inverse, and each update keeps `P` symmetric
/// by construction. The lanes are fixed (SIMD8, two unused), so an update is a dozen vector
/// operations with no loop.
@frozen
public struct PoiseFilterBiasEstimator: Sendable {
    /// Estimated bias, rad/s.
    public var bias: SIMD3<Float>
    /// Estimated scale-factor error per axis, dimensionless.
    public var scale: SIMD3<Float>
    /// One-sigma uncertainty of the scale-factor error, dimensionless (largest axis; as of the
    /// last `predict`, so that reading it every sample costs nothing).
    public var scaleUncertainty: Float
    /// State: bias in °/s (lanes 0–2), scale error in % (lanes 3–5).
    @usableFromInline var state: SIMD8<Float>
    /// Covariance columns.
    @usableFromInline var p0, p1, p2, p3, p4, p5: SIMD8<Float>
    /// Initial (and largest) variances: (°/s)² for the bias, (%)² for the scale.
    @usableFromInline let initialVariance: SIMD8<Float>
    /// Variance added per second.
    @usableFromInline let varianceGrowth: SIMD8<Float>
    /// Bound on each state: the bias limit (°/s), three sigmas of the scale error (%).
    @usableFromInline let bound: SIMD8<Float>
    /// Per-axis bound on a residual, °/s.
    @usableFromInline let limit: Float

    @inlinable static var degrees: Float { 180 / .pi }
    @inlinable static var radians: Float { .pi / 180 }

    /// `initialUncertainty` and `limit` in rad/s, `forgettingTime` in s;
    /// `scaleUncertainty` dimensionless (0 turns the scale estimate off), and the scale
    /// error's own forgetting time in s.
    @inlinable
    public init(initialUncertainty: Float, forgettingTime: Float, limit: Float,
                scaleUncertainty: Float = 0, scaleForgettingTime: Float = 1000) {
        let sigma = initialUncertainty * Self.degrees
        let biasVariance = max(sigma * sigma, 1e-12)
        let scaleSigma = max(scaleUncertainty, 0) * 100
        let scaleVariance = scaleSigma * scaleSigma
        // Each may wander by a fifth of its initial uncertainty per forgetting time.
        let biasGrowth = forgettingTime > 0 ? biasVariance / 25 / forgettingTime : 0
        let scaleGrowth = scaleForgettingTime > 0 ? scaleVariance / 25 / scaleForgettingTime : 0
        initialVariance = SIMD8(biasVariance, biasVariance, biasVariance,
                                scaleVariance, scaleVariance, scaleVariance, 0, 0)
        varianceGrowth = SIMD8(biasGrowth, biasGrowth, biasGrowth,
                               scaleGrowth, scaleGrowth, scaleGrowth, 0, 0)
        let biasBound = max(limit, 0) * Self.degrees
        bound = SIMD8(biasBound, biasBound, biasBound,
                      3 * scaleSigma, 3 * scaleSigma, 3 * scaleSigma, 0, 0)
        self.limit = biasBound
        bias = .zero
        scale = .zero
        self.scaleUncertainty = scaleSigma * 0.01
        state = .zero
        (p0, p1, p2, p3, p4, p5) = (.zero, .zero, .zero, .zero, .zero, .zero)
        p0[0] = biasVariance; p1[1] = biasVariance; p2[2] = biasVariance
        p3[3] = scaleVariance; p4[4] = scaleVariance; p5[5] = scaleVariance
    }

    /// One-sigma uncertainty of the bias, rad/s (root of the largest diagonal element).
    @inlinable
    public var uncertainty: Float {
        squareRoot(max(p0[0], max(p1[1], p2[2]))) * Self.radians
    }

    /// The variances of the states: (°/s)² for the bias (lanes 0–2), (%)² for the scale (3–5).
    @inlinable public var variances: SIMD8<Float> {
        SIMD8(p0[0], p1[1], p2[2], p3[3], p4[4], p5[5], 0, 0)
    }

    /// Adds the random-walk process noise for a step of `dt` seconds.
    @inlinable @inline(__always)
    public mutating func predict(dt: Float) {
        var grown = variances + varianceGrowth * dt
        grown.replace(with: initialVariance, where: grown .> initialVariance)
        p0[0] = grown[0]; p1[1] = grown[1]; p2[2] = grown[2]
        p3[3] = grown[3]; p4[4] = grown[4]; p5[5] = grown[5]
        scaleUncertainty = squareRoot(max(grown[3], max(grown[4], grown[5]))) * 0.01
    }

    /// Applies the scalar measurement `z = h·x + noise`: `h` in lanes 0–5 (per °/s of bias, per
    /// % of scale error), `z` in rad/s, `variance` in (°/s)².
    @inlinable @inline(__always)
    public mutating func update(h: SIMD8<Float>, measurement z: Float, variance: Float) {
        let ph = covarianceTimes(h)
        let s = (h * ph).sum() + variance
        guard s > 0 else { return }
        let r = residual(h: h, measurement: z)
        let k = ph * (1 / s)
        move(by: k * r)
        p0 -= k * ph[0]; p1 -= k * ph[1]; p2 -= k * ph[2]
        p3 -= k * ph[3]; p4 -= k * ph[4]; p5 -= k * ph[5]
        guardDiagonal()
    }

    /// `update(h:measurement:variance:)` with each state moved by only `share` (per lane,
    /// 0–1) of its Kalman step: a partial update, with `P` updated for the gain actually used
    /// (Joseph form, P − K′hP − PhᵀK′ᵀ + K′sK′ᵀ), so that a state held back keeps the variance it
    /// did not lose. `share` 1 on every lane is the full update.
    @inlinable @inline(__always)
    public mutating func update(h: SIMD8<Float>, measurement z: Float, variance: Float, share: SIMD8<Float>) {
        let ph = covarianceTimes(h)
        let s = (h * ph).sum() + variance
        guard s > 0 else { return }
        let r = residual(h: h, measurement: z)
        let k = ph * (1 / s) * share
        move(by: k * r)
        let ks = k * s - ph
        p0 += ks * k[0] - k * ph[0]; p1 += ks * k[1] - k * ph[1]; p2 += ks * k[2] - k * ph[2]
        p3 += ks * k[3] - k * ph[3]; p4 += ks * k[4] - k * ph[4]; p5 += ks * k[5] - k * ph[5]
        guardDiagonal()
    }

    /// P h.
    @inlinable @inline(__always)
    func covarianceTimes(_ h: SIMD8<Float>) -> SIMD8<Float> {
        var ph: SIMD8<Float> = p0 * h[0]
        ph += p1 * h[1]
        ph += p2 * h[2]
        ph += p3 * h[3]
        ph += p4 * h[4]
        ph += p5 * h[5]
        return ph
    }

    /// The measurement's residual against the state, °/s, bounded by `limit`.
    @inlinable @inline(__always)
    func residual(h: SIMD8<Float>, measurement z: Float) -> Float {
        min(max(z * Self.degrees - (h * state).sum(), -limit), limit)
    }

    /// Moves the state by `step`, within ±`bound`, and refreshes `bias` and `scale`.
    @inlinable @inline(__always)
    mutating func move(by step: SIMD8<Float>) {
        state += step
        // Lane-wise selects, not min/max: a NaN stays NaN for the caller's finiteness check.
        state.replace(with: bound, where: state .> bound)
        state.replace(with: -bound, where: state .< -bound)
        bias = SIMD3(state[0], state[1], state[2]) * Self.radians
        scale = SIMD3(state[3], state[4], state[5]) * 0.01
    }

    /// Guards the covariance's diagonal against round-off.
    @inlinable @inline(__always)
    mutating func guardDiagonal() {
        p0[0] = max(p0[0], 1e-9); p1[1] = max(p1[1], 1e-9); p2[2] = max(p2[2], 1e-9)
        p3[3] = max(p3[3], 1e-9); p4[4] = max(p4[4], 1e-9); p5[5] = max(p5[5], 1e-9)
    }

    /// Applies direct measurements of the three bias components (rad/s, `variance` in (°/s)²
    /// each), as at rest.
    @inlinable @inline(__always)
    public mutating func updateBias(_ z: SIMD3<Float>, variance: Float) {
        update(h: SIMD8(1, 0, 0, 0, 0, 0, 0, 0), measurement: z.x, variance: variance)
        update(h: SIMD8(0, 1, 0, 0, 0, 0, 0, 0), measurement: z.y, variance: variance)
        update(h: SIMD8(0, 0, 1, 0, 0, 0, 0, 0), measurement: z.z, variance: variance)
    }

    /// The readings now arrive less `offset` (rad/s): the bias they carry moves with them.
    @inlinable
    public mutating func shift(by offset: SIMD3<Float>) {
        state -= SIMD8(offset.x, offset.y, offset.z, 0, 0, 0, 0, 0) * Self.degrees
        bias = SIMD3(state[0], state[1], state[2]) * Self.radians
    }

    /// The rate a gyroscope reading `g` stands for under this estimate.
    @inlinable @inline(__always)
    public func corrected(_ g: SIMD3<Float>) -> SIMD3<Float> {
        Self.corrected(g, bias: bias, scale: scale)
    }

    /// The rate a gyroscope reading `g` stands for: `g − b − s ⊙ g` (first order in `s`, which
    /// is a few per cent at most). The filter integrates it and `DeviceMotion` reports it.
    @inlinable @inline(__always)
    public static func corrected(_ g: SIMD3<Float>, bias: SIMD3<Float>,
                                 scale: SIMD3<Float>) -> SIMD3<Float> {
        g - bias - scale * g
    }
}
