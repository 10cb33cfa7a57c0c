import PoiseMath

extension PoiseFilter {
    /// Every `turnInterval` (every fourth bias step): one step of the turn compensation, with
    /// the residual averaged over the bias steps since the last; nothing when it is off, and at
    /// rest, where nothing moves, the velocity is forgotten.
    @usableFromInline @inline(never)
    mutating func stepTurn(atRest: Bool, up: SIMD3<Float>, rate: SIMD3<Float>) {
        let elapsed = turnElapsed
        let residual = turnResidual * (1 / elapsed)
        turnElapsed = 0
        turnResidual = SIMD3(0, 0, 0)
        guard settings.bodyVelocityTimeConstant > 0 else { return }
        if atRest {
            forgetTurn()
            return
        }
        compensateTurn(residual: residual, up: up, rate: rate, dt: elapsed)
    }

    /// Learns the body velocity `v` whose turning is the sustained acceleration, and takes the
    /// share of `ω × v` that the inertial low-pass would let through out of its input.
    ///
    /// A wheeled body driving round a curve feels c = ω × v: fixed in the body (v is forward),
    /// turning at ω in I, where gravity stands still. The low-pass averages a vector turning at
    /// ω down to |H(ω)| of it — 22 % at 1 rad/s with τ = 3 s, which on a 1.5 m/s² turn is a 1.9°
    /// lean — and no choice of τ helps both a slow turn and a fast hand. But c and gravity
    /// separate as the body turns, so `residual` (the mean specific force across the filtered
    /// gravity since the last step, in I) seen in the body is a measurement of ω × v: v is
    /// learned by a normalised least-squares step weighted by the share of sustained rotation
    /// about the vertical (a net turn of a radian within the learning time; a hand's
    /// back-and-forth has none) and forgotten otherwise.
    ///
    /// Steady turning leaves one ambiguity: a gyroscope error across the turn axis (bias,
    /// axis misalignment, a scale error when the axis is oblique to the body axes) tilts the
    /// strapdown frame by a body-fixed angle, which the accelerometer sees as a body-fixed
    /// specific force g·|e|/|ω| — just like ω × v. Compensating it would keep the bias estimate
    /// from correcting that tilt. So only the share that is more likely acceleration is taken
    /// out: |H|²|c|² / (|H|²|c|² + g² σ²/|ω|²), σ² the variance of the rate error across the axis
    /// from the bias estimator's own uncertainties and `biasMotionRateUncertainty`. A slow
    /// turn (the low-pass passes much of c) is compensated almost fully; a fast spin, which the
    /// low-pass already averages out, hardly at all.
    @inlinable @inline(__always)
    mutating func compensateTurn(residual: SIMD3<Float>, up: SIMD3<Float>, rate w: SIMD3<Float>, dt: Float) {
        let time = settings.bodyVelocityTimeConstant
        let k = min(dt / time, 1)
        meanBodyRate += k * (w - meanBodyRate)
        let vertical = dot(meanBodyRate, up)
        let turned = vertical * vertical * time * time
        let share = turned / (1 + turned)
        // The residual is net of what was taken out over the interval (the impulse entered the
        // low-pass in the first bias step of it); the error is against all of ω × v̂.
        let rows = Self.rotationRows(gyroscopeAttitude)
        let r = residual + turnCompensation
        let w2 = dot(w, w)
        let error = rows.x * r.x + rows.y * r.y + rows.z * r.z - cross(w, bodyVelocity)
        // (ω × v) × ω = |ω|² v for v across ω; rotation slower than 1/time is tilt to the low-pass.
        bodyVelocity += (share * k / (w2 + 1 / (time * time))) * cross(error, w)
        bodyVelocity *= 1 - (1 - share) * k
        // Aimed at the middle of the interval ahead: fixed in the body, c turns with it in I.
        var c = cross(w, bodyVelocity)
        c += (dt / 2) * cross(w, c)

        let omega2 = accelerationFilter.omegaSquared, damping = accelerationFilter.twoZetaOmega
        let passed = omega2 * omega2 / ((omega2 - w2) * (omega2 - w2) + damping * damping * w2)
        let signal = passed * dot(c, c)
        // Rate error across ω: Σᵢ (σ_bᵢ² + σ_sᵢ² ωᵢ²)(1 − ω̂ᵢ²) from the estimator (°/s and %),
        // and misalignment, σ_m |ω| on each of the two axes across ω.
        let axisShare = w * w * (1 / max(w2, 1e-12))
        let radians2 = PoiseFilterBiasEstimator.radians * PoiseFilterBiasEstimator.radians
        let variances = biasEstimator.variances
        let biasVariance = SIMD3(variances[0], variances[1], variances[2]) * radians2
        let scaleVariance = SIMD3(variances[3], variances[4], variances[5]) * 1e-4
        let misalignment = settings.biasMotionRateUncertainty
        let rateVariance = ((biasVariance + scaleVariance * w * w) * (1 - axisShare)).sum()
            + 2 * misalignment * misalignment * w2
        let noise = Self.standardGravity * Self.standardGravity * rateVariance / max(w2, 1e-6)
        let weight = signal / max(signal + noise, 1e-12)
        turnCompensation = SIMD3(dot(rows.x, c), dot(rows.y, c), dot(rows.z, c)) * weight
        // Taken out of the input over the interval ahead: an impulse on the low-pass's rate.
        accelerationFilter.rate -= turnCompensation * (omega2 * dt)
    }

    /// Forgets the body velocity (at rest, and when the attitude is lost).
    @inlinable @inline(__always)
    mutating func forgetTurn() {
        bodyVelocity = SIMD3(0, 0, 0)
        meanBodyRate = SIMD3(0, 0, 0)
        turnCompensation = SIMD3(0, 0, 0)
        turnResidual = SIMD3(0, 0, 0)
        turnElapsed = 0
    }
}
