import PoiseMath

extension PoiseFilter {
    /// Inclination correction, rest detection and bias estimation from one accelerometer
    /// sample `a` (m/s², screened, lever arm compensated), the sample as `measured` (for rest
    /// detection: the compensation's differentiated gyroscope noise would hide rest) and the
    /// raw gyroscope (rad/s).
    @inlinable @inline(__always)
    mutating func updateInclination(_ a: SIMD3<Float>, measured: SIMD3<Float>, gyroscope: SIMD3<Float>,
                                    dt: Float, flags: inout FilterFlags) {
        let atRest = rest.update(gyroscope: gyroscope, accelerometer: measured, dt: dt)
        if atRest { flags.insert(.atRest) }
        let norm2 = dot(a, a)
        if atRest {
            gravity += min(dt / settings.restFilterTimeConstant, 1) * (norm2 - gravity * gravity)
                / (2 * gravity)
        }

        // If asked (off by default: the low-pass averages a tap and its rebound away), leave out
        // impacts for a short while: samples whose specific force is far from the gravity the
        // filter expects, as a vector. Judging by the norm alone is not symmetric:
        // along a tilted or vertical axis |g + a| grows when a points up and shrinks when it
        // points down, so a norm test leaves out one half of each swing (a biased average),
        // and beyond 1 g a sample pointing straight down passes it (|−g| = g).
        let inertial = gyroscopeAttitude.rotate(a)
        var rejected = false
        var input = inertial
        let threshold = settings.accelerationRejectionThreshold
        // Off by default (infinite threshold): the common sample then pays one test.
        if threshold < .infinity, !accelerationFilter.isAveraging {
            let filtered = accelerationFilter.output
            let expectedNorm2 = dot(filtered, filtered)
            let deviation2: Float
            if expectedNorm2 > 1e-6 {
                let excess = inertial - filtered * (gravity * Self.fastReciprocalSquareRoot(expectedNorm2))
                deviation2 = dot(excess, excess)
            } else {
                let n = squareRoot(norm2) - gravity
                deviation2 = n * n
            }
            let outside = deviation2 > threshold * threshold
            // Leaving out a share of a sustained motion's samples — whichever way the test is
            // centred — skews what remains; only rare, short impacts are held out.
            accelerationRejectionShare += min(dt / Self.rejectionShareTime, 1) * ((outside ? 1 : 0) - accelerationRejectionShare)
            if outside && accelerationRejectionShare < Self.impactShare {
                if accelerationRejectionTime < settings.accelerationRejectionTime {
                    accelerationRejectionTime += dt
                    rejected = true
                    // Held at the gravity it expects; the excess waits (see below).
                    input = holdOut(inertial, dt: dt)
                }
            } else {
                accelerationRejectionTime = 0
            }
        } else {
            accelerationRejectionTime = 0
        }

        // Hold the filter at the gravity it expects while a sample is left out, and keep the
        // velocity change the sample carried beyond it; the next sample used hands that change
        // over. Leaving impacts out for good is biased: a hand's stroke is a gentle push ended
        // by a sharp stop, and dropping only the stops keeps the pushes, so the average leans
        // along the stroke by degrees. Kept, a stop still balances its push; a tap's spike and
        // rebound, both held out, cancel and leave nothing. The low-pass is linear, so this is
        // the true acceleration delayed by at most `accelerationRejectionTime`.
        if rejected {
            flags.insert(.accelerationRejected)
        } else if holdsVelocityChange {
            input = handOverVelocityChange(input, dt: dt)
        }
        _ = accelerationFilter.update(input, dt: dt)

        // At rest there is no linear acceleration: the specific force is gravity. What the
        // low-pass still remembers of the motion before — a velocity change whose counterpart
        // came too late to cancel inside τ, like a shake that drifted and stopped — is then
        // known to be motion, not tilt, so the filter restarts from the accelerometer's rest
        // mean (the body has not turned since: the gyroscope was quiet). Once per rest period,
        // and only once the body is still: a smooth acceleration (a robot speeding up) passes
        // the rest test, and restarting then would take it for gravity.
        if atRest, rest.isStill, !accelerationFilter.isAveraging {
            restartAtRest()
        }

        // Turn the filtered gravity, seen in the earth frame, upright.
        let filtered = accelerationFilter.output
        let filteredNorm2 = dot(filtered, filtered)
        guard filteredNorm2 > 1e-6 else {
            earthAttitude = Self.renormalized(inclinationCorrection * gyroscopeAttitude)
            return
        }
        let inverseNorm = Self.fastReciprocalSquareRoot(filteredNorm2)
        let up = inclinationCorrection.rotate(filtered) * inverseNorm
        let correction: Quaternion
        if up.z > -0.9999 {
            // w = √((1 + z)/2), vector = (y, −x, 0)/(2w), with a single reciprocal root.
            let r = Self.fastReciprocalSquareRoot(2 * (1 + up.z))
            correction = Quaternion(w: (1 + up.z) * r, x: up.y * r, y: -up.x * r, z: 0)
        } else {
            correction = Quaternion(w: 0, x: 1, y: 0, z: 0)
        }
        inclinationCorrection = Self.renormalized(correction * inclinationCorrection)
        earthAttitude = Self.renormalized(inclinationCorrection * gyroscopeAttitude)

        // The bias changes over tens of seconds and its measurements are low-pass signals (time
        // constants of 0.5 s and more), so the Kalman filter runs at 25 Hz whatever the sample
        // rate: faster changed no estimate that mattered and cost 140 instructions a sample.
        biasElapsed += dt
        guard biasElapsed >= Self.biasUpdateInterval else { return }
        stepBias(atRest: atRest, usable: !rejected, inverseGravity: inverseNorm, gyroscope: gyroscope)
    }

    /// The bias step (every `biasUpdateInterval`): out of line, so that its registers are not
    /// the common sample's.
    @usableFromInline @inline(never)
    mutating func stepBias(atRest: Bool, usable: Bool, inverseGravity: Float, gyroscope: SIMD3<Float>) {
        let step = biasElapsed
        biasElapsed = 0
        biasEstimator.predict(dt: step)
        // What the gyroscope's scale uncertainty may have turned the heading by (sampled with the
        // bias step: a bound, not an integral that needs every sample).
        headingDrift += biasEstimator.scaleUncertainty * squareRoot(dot(gyroscope, gyroscope)) * step
        updateBias(restRate: atRest ? rest.gyroscope : nil, usable: usable,
                   inverseGravity: inverseGravity, angularRate: gyroscope, dt: step)
    }

    /// The variance, (°/s)²·s, that sustained linear acceleration adds to the motion bias
    /// measurement, from the inertial low-pass's state at a bias step `dt` after the last.
    ///
    /// The low-pass (`PoiseFilterLowPass`, ÿ = ω²(u − y) − 2ζω ẏ with 1/ω² = τ²/2, 2ζ/ω = τ) keeps
    /// the mean of its input over the step: ū − y = τ ẏ + (τ²/2) Δẏ/Δt. A linear acceleration `a`
    /// sustained for a while turns the filtered gravity at up to |a|/(g τ) — 1 m/s² gives
    /// 1.9 °/s, twenty times a typical bias — for about τ, so the drift measures the bias only as
    /// well as (|a|/(g τ))² correlated over τ allows. But a bias error ε turns gravity in I
    /// steadily, and the low-pass follows a steady turn with ẏ = the turn, its output lagging by
    /// τ: ū − y = τ ẏ, ÿ = 0. That share, τ·g·ε across gravity (0.5 m/s² per °/s), is the very
    /// drift the bias measurement reads; counted as acceleration, it made a large bias error
    /// weigh its own measurement down (1 °/s: a hundredfold) and the estimate crawl. What no
    /// steady turn explains is the input leaving the low-pass's extrapolation,
    /// ū − (y + τ ẏ) = (τ²/2) Δẏ/Δt — at the onset of an acceleration step, all of it — so only
    /// that part across gravity counts. Oscillating motion (a hand, a shake) barely moves the
    /// low-pass and averages out in the estimate; hence it is first averaged over
    /// `sustainedAccelerationTime`, so only what is sustained counts. The whole mean over the
    /// step still goes to the turn compensation (`turnResidual`).
    @inlinable @inline(__always)
    mutating func sustainedAccelerationVarianceTime(up: SIMD3<Float>, dt: Float) -> Float {
        let tau = accelerationFilter.timeConstant
        let rate = accelerationFilter.rate
        var change = (rate - previousFilterRate) * (tau * tau / 2 / dt)
        previousFilterRate = rate
        change -= up * dot(change, up)
        var steady = rate * tau
        steady -= up * dot(steady, up)
        turnResidual += (steady + change) * dt
        sustainedAcceleration += min(dt / Self.sustainedAccelerationTime, 1) * (change - sustainedAcceleration)
        return dot(sustainedAcceleration, sustainedAcceleration) * accelerationVarianceScale
    }

    /// Averaging time of the sustained linear acceleration, s.
    @inlinable static var sustainedAccelerationTime: Float { 1 }
    /// m/s².
    @inlinable static var standardGravity: Float { 9.81 }

    // The rare paths below are out of line, so the common sample pays a branch for each and
    // not their code (instruction budget: update + read ≤ 1200 per 9D sample).

    /// The held-out sample `inertial` replaced by the gravity the filter expects, its excess
    /// over it kept as a velocity change for the next sample used (the excess is worked out
    /// again here, as the test did, so the common path need not keep it).
    @usableFromInline @inline(never)
    mutating func holdOut(_ inertial: SIMD3<Float>, dt: Float) -> SIMD3<Float> {
        let filtered = accelerationFilter.output
        let expectedNorm2 = dot(filtered, filtered)
        var excess = SIMD3<Float>(0, 0, 0)
        if expectedNorm2 > 1e-6 {
            excess = inertial - filtered * (gravity * Self.fastReciprocalSquareRoot(expectedNorm2))
        }
        heldVelocityChange += excess * dt
        holdsVelocityChange = true
        return inertial - excess
    }

    /// `input` with the velocity change held since the last sample used handed over.
    @usableFromInline @inline(never)
    mutating func handOverVelocityChange(_ input: SIMD3<Float>, dt: Float) -> SIMD3<Float> {
        let released = input + heldVelocityChange * (1 / dt)
        heldVelocityChange = SIMD3(0, 0, 0)
        holdsVelocityChange = false
        return released
    }

    /// The rest period's first bias step: the mean rate over the quiet time before rest was
    /// declared enters as one measurement, worth as much as the filtered rate over that time
    /// (variance σ²τ/T, as `restVarianceTime / dt` is for one step of `dt`).
    @usableFromInline @inline(never)
    mutating func applyQuietMean() {
        rest.quietMeanApplied = true
        guard let (rate, duration) = rest.quietMean else { return }
        biasEstimator.updateBias(rate, variance: restVarianceTime / duration)
    }

    /// The filtered gravity restarted from the rest mean (the body has come to rest).
    @usableFromInline @inline(never)
    mutating func restartAtRest() {
        rest.restarted()
        accelerationFilter.output = gyroscopeAttitude.rotate(rest.accelerometer)
        accelerationFilter.rate = SIMD3(0, 0, 0)
        heldVelocityChange = SIMD3(0, 0, 0)
        holdsVelocityChange = false
        // At rest nothing accelerates.
        previousFilterRate = SIMD3(0, 0, 0)
        sustainedAcceleration = SIMD3(0, 0, 0)
        forgetTurn()
    }

    /// Averaging time of the rejected share, s, and the share above which samples are no
    /// longer left out (5 %: 50 ms of impact per second).
    @inlinable static var rejectionShareTime: Float { 1 }
    @inlinable static var impactShare: Float { 0.05 }

    /// Time between steps of the turn compensation, s: every fourth bias step (3.5 steps, so
    /// that the sum of four steps is past it whatever their rounding).
    @inlinable static var turnInterval: Float { 3.5 * biasUpdateInterval }

    /// Time between bias Kalman filter steps, s.
    @inlinable static var biasUpdateInterval: Float { 0.04 }

    /// One step of the bias Kalman filter: at rest the filtered gyroscope is the bias; in
    /// motion the drift of the filtered gravity in I measures the world-horizontal part of the
    /// rate error, bias and scale-factor error alike.
    @inlinable @inline(__always)
    mutating func updateBias(restRate: SIMD3<Float>?, usable: Bool, inverseGravity: Float,
                             angularRate: SIMD3<Float>, dt: Float) {
        // The estimate leaves the rate error (b − b̂) + (s − ŝ) ⊙ ω, with ω ≈ the gyroscope.
        let applied = biasEstimator.bias + biasEstimator.scale * angularRate
        let rotation = Self.rotationRows(earthAttitude)
        let rowX = rotation.x, rowY = rotation.y
        // Regressors of the scale error (row · ω, per axis), in °/s per %.
        let g = angularRate * (PoiseFilterBiasEstimator.degrees * 0.01)
        let scaleX = rowX * g, scaleY = rowY * g
        let rows = rotationFilter.update(
            SIMD16(rowX.x, rowX.y, rowX.z, rowY.x, rowY.y, rowY.z,
                   dot(rowX, applied), dot(rowY, applied),
                   scaleX.x, scaleX.y, scaleX.z, scaleY.x, scaleY.y, scaleY.z, 0, 0),
            dt: dt)
        // Tracked at every step, so that the mean over a step is always over one step.
        let accelerationVarianceTime = sustainedAccelerationVarianceTime(
            up: accelerationFilter.output * inverseGravity, dt: dt)
        turnElapsed += dt
        if turnElapsed >= Self.turnInterval {
            stepTurn(atRest: restRate != nil, up: rotation.z, rate: angularRate)
        }
        if let restRate {
            guard settings.restBiasEstimation else { return }
            if !rest.quietMeanApplied { applyQuietMean() }
            biasEstimator.updateBias(restRate, variance: restVarianceTime / dt)
            return
        }
        guard settings.motionBiasEstimation, usable, !rotationFilter.isAveraging else { return }
        // Earth-frame drift of I: the filtered gravity turns as ω_drift × up, with
        // ω_drift = R (b − b̂ + (s − ŝ) ⊙ ω); filtered alike,
        // LP(R(b + s ⊙ ω)) = drift + LP(R(b̂ + ŝ ⊙ ω)).
        let drift = inclinationCorrection.rotate(accelerationFilter.rate) * inverseGravity
        // Axis-misalignment errors, which the estimate leaves, grow with the rate (in °/s here).
        let rateNoise = settings.biasMotionRateUncertainty * PoiseFilterBiasEstimator.degrees
        let variance = (motionVarianceTime + accelerationVarianceTime
            + rateNoise * rateNoise * dot(angularRate, angularRate) * accelerationFilter.timeConstant) / dt
        // The vertical (world z) part is unobservable from gravity; its variance grows to the
        // ceiling until rest, or rotation that tilts the body axes, makes it observable. That
        // variance is right as a prior, but a body axis tilted only a little out of the vertical
        // shows its bias to these two measurements at the sine of the tilt, and the Kalman step
        // would move it by up to 1/sine of a residual that is not bias (the acceleration along
        // an 8° ramp: 7 times it). So each bias component moves by only its axis's share of the
        // horizontal plane (the squared sine, summed over both rows) over `fullVisibility`, and
        // keeps the variance it did not use.
        let x = SIMD3(rows[0], rows[1], rows[2]), y = SIMD3(rows[3], rows[4], rows[5])
        var visible = (x * x + y * y) * (1 / Self.fullVisibility)
        visible.replace(with: 1, where: visible .> 1)
        let share = SIMD8(visible.x, visible.y, visible.z, 1, 1, 1, 1, 1)
        biasEstimator.update(h: SIMD8(x.x, x.y, x.z, rows[8], rows[9], rows[10], 0, 0),
                             measurement: -drift.y + rows[6], variance: variance, share: share)
        biasEstimator.update(h: SIMD8(y.x, y.y, y.z, rows[11], rows[12], rows[13], 0, 0),
                             measurement: drift.x + rows[7], variance: variance, share: share)
    }

    /// The share of the horizontal plane (squared sine of the tilt out of the vertical, 18.4°)
    /// from which a body axis's bias component takes the motion measurement's full step.
    @inlinable static var fullVisibility: Float { 0.1 }
}
