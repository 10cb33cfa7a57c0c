import PoiseMath

/// The 6 × 6 symmetric covariance of the MEKF's error state (δθ, δb), one `SIMD8` per row
/// (lanes 6 and 7 unused and kept at zero), so every row operation is one vector operation.
@frozen @usableFromInline
struct ErrorCovariance: Sendable {
    @usableFromInline var r0, r1, r2, r3, r4, r5: SIMD8<Float>

    /// A diagonal covariance: attitude variance on the first three, bias on the last three.
    @inlinable
    init(attitudeVariance: Float, biasVariance: Float) {
        r0 = SIMD8(attitudeVariance, 0, 0, 0, 0, 0, 0, 0)
        r1 = SIMD8(0, attitudeVariance, 0, 0, 0, 0, 0, 0)
        r2 = SIMD8(0, 0, attitudeVariance, 0, 0, 0, 0, 0)
        r3 = SIMD8(0, 0, 0, biasVariance, 0, 0, 0, 0)
        r4 = SIMD8(0, 0, 0, 0, biasVariance, 0, 0, 0)
        r5 = SIMD8(0, 0, 0, 0, 0, biasVariance, 0, 0)
    }

    /// The diagonal (lanes 0–5).
    @inlinable
    var diagonal: SIMD8<Float> { SIMD8(r0[0], r1[1], r2[2], r3[3], r4[4], r5[5], 0, 0) }

    /// `P h` for a measurement row `h` (P is symmetric, so this is also `(h P)ᵀ`).
    @inlinable
    func times(_ h: SIMD8<Float>) -> SIMD8<Float> {
        var sum: SIMD8<Float> = r0 * h[0]
        sum += r1 * h[1]
        sum += r2 * h[2]
        sum += r3 * h[3]
        sum += r4 * h[4]
        sum += r5 * h[5]
        return sum
    }

    /// One scalar measurement update: measurement row `h`, innovation `y` (already net of the
    /// correction `x` accumulated this sample), noise variance `r`. Updates `x` and P.
    /// Returns false (and changes nothing) when the innovation variance is unusable.
    @inlinable
    mutating func update(h: SIMD8<Float>, innovation y: Float, variance r: Float,
                         correction x: inout SIMD8<Float>) -> Bool {
        let ph = times(h)
        let s = (h * ph).sum() + r
        guard s > 0, s.isFinite else { return false }
        let k = ph / s
        x += k * (y - (h * x).sum())
        r0 -= k[0] * ph
        r1 -= k[1] * ph
        r2 -= k[2] * ph
        r3 -= k[3] * ph
        r4 -= k[4] * ph
        r5 -= k[5] * ph
        return true
    }

    /// A scalar update whose attitude gain is restricted to part of the rotation space:
    /// `tiltOnly` drops the gain's component along the body direction `axis` (world up), so
    /// the measurement cannot turn the heading; otherwise only that component is kept, so the
    /// measurement turns nothing but the heading. With `updatesBias` false the bias is only
    /// "considered" (Schmidt): its uncertainty shapes the gain but it is not corrected.
    /// The covariance uses the Joseph form, which
    /// stays correct for such a suboptimal gain. Returns false when unusable.
    @inlinable
    mutating func constrainedUpdate(h: SIMD8<Float>, innovation y: Float, variance r: Float,
                                    axis u: SIMD3<Float>, tiltOnly: Bool, updatesBias: Bool = true,
                                    correction x: inout SIMD8<Float>) -> Bool {
        let ph = times(h)
        let s = (h * ph).sum() + r
        guard s > 0, s.isFinite else { return false }
        var k = ph / s
        let along = k[0] * u.x + k[1] * u.y + k[2] * u.z
        let kept: SIMD3<Float> = tiltOnly
            ? SIMD3(k[0], k[1], k[2]) - along * u
            : along * u
        k[0] = kept.x
        k[1] = kept.y
        k[2] = kept.z
        if !updatesBias {
            k[3] = 0
            k[4] = 0
            k[5] = 0
        }
        x += k * (y - (h * x).sum())
        // Joseph form: P − k phᵀ − ph kᵀ + s k kᵀ.
        let sk = s * k
        r0 += (sk[0] - ph[0]) * k - k[0] * ph
        r1 += (sk[1] - ph[1]) * k - k[1] * ph
        r2 += (sk[2] - ph[2]) * k - k[2] * ph
        r3 += (sk[3] - ph[3]) * k - k[3] * ph
        r4 += (sk[4] - ph[4]) * k - k[4] * ph
        r5 += (sk[5] - ph[5]) * k - k[5] * ph
        return true
    }

    /// The transpose.
    @inlinable
    var transposed: ErrorCovariance {
        var t = self
        t.r0 = SIMD8(r0[0], r1[0], r2[0], r3[0], r4[0], r5[0], 0, 0)
        t.r1 = SIMD8(r0[1], r1[1], r2[1], r3[1], r4[1], r5[1], 0, 0)
        t.r2 = SIMD8(r0[2], r1[2], r2[2], r3[2], r4[2], r5[2], 0, 0)
        t.r3 = SIMD8(r0[3], r1[3], r2[3], r3[3], r4[3], r5[3], 0, 0)
        t.r4 = SIMD8(r0[4], r1[4], r2[4], r3[4], r4[4], r5[4], 0, 0)
        t.r5 = SIMD8(r0[5], r1[5], r2[5], r3[5], r4[5], r5[5], 0, 0)
        return t
    }

    /// Rows replaced by `Φ · rows` for the error-state transition Φ = [[A, −dt·I], [0, I]],
    /// where `A` (rows `m0 m1 m2`) is the rotation taking the old body frame to the new one.
    @inlinable
    mutating func applyTransition(_ m0: SIMD3<Float>, _ m1: SIMD3<Float>, _ m2: SIMD3<Float>, dt: Float) {
        var a0: SIMD8<Float> = m0.x * r0 + m0.y * r1
        a0 += m0.z * r2 - dt * r3
        var a1: SIMD8<Float> = m1.x * r0 + m1.y * r1
        a1 += m1.z * r2 - dt * r4
        var a2: SIMD8<Float> = m2.x * r0 + m2.y * r1
        a2 += m2.z * r2 - dt * r5
        r0 = a0
        r1 = a1
        r2 = a2
    }

    /// P ← Φ P Φᵀ + Q for a body rotation `step` (the gyro increment this sample) and a bias
    /// that enters the attitude error over `dt`; Q diagonal (attitude and bias variances).
    /// The attitude block uses the exact rotation, not I − [ω×]dt: the first-order form is
    /// not orthogonal and would inflate P by (1 + |ω dt|²) every sample of fast rotation.
    @inlinable
    mutating func propagate(_ step: Quaternion, dt: Float, attitudeNoise qa: Float, biasNoise qb: Float) {
        // A = R(step)ᵀ: rows are the old body axes seen from the new body frame.
        let w = step.w, x = step.x, y = step.y, z = step.z
        let m0 = SIMD3<Float>(1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y))
        let m1 = SIMD3<Float>(2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x))
        let m2 = SIMD3<Float>(2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y))
        applyTransition(m0, m1, m2, dt: dt)     // Φ P
        self = transposed                       // P Φᵀ (P symmetric)
        applyTransition(m0, m1, m2, dt: dt)     // Φ P Φᵀ
        r0[0] += qa
        r1[1] += qa
        r2[2] += qa
        r3[3] += qb
        r4[4] += qb
        r5[5] += qb
    }

    /// Restores symmetry and keeps variances within `[floor, attitudeCeiling/biasCeiling]`.
    /// Returns false if anything is not finite (the caller then resets P).
    @inlinable
    mutating func condition(floor: Float, attitudeCeiling: Float, biasCeiling: Float) -> Bool {
        let t = transposed
        r0 = (r0 + t.r0) * 0.5
        r1 = (r1 + t.r1) * 0.5
        r2 = (r2 + t.r2) * 0.5
        r3 = (r3 + t.r3) * 0.5
        r4 = (r4 + t.r4) * 0.5
        r5 = (r5 + t.r5) * 0.5
        var all: SIMD8<Float> = r0 + r1
        all += r2 + r3
        all += r4 + r5
        guard (all * 0) == SIMD8<Float>(repeating: 0) else { return false }
        r0[0] = min(max(r0[0], floor), attitudeCeiling)
        r1[1] = min(max(r1[1], floor), attitudeCeiling)
        r2[2] = min(max(r2[2], floor), attitudeCeiling)
        r3[3] = min(max(r3[3], floor), biasCeiling)
        r4[4] = min(max(r4[4], floor), biasCeiling)
        r5[5] = min(max(r5[5], floor), biasCeiling)
        return true
    }
}
