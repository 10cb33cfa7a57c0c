import PoiseMath

extension PoiseFilter {
    /// Inclination correction, rest detection and bias estimation from one accelerometer
    /// sample `a` (m/s², screened) and the raw gyroscope (rad/s).
    @inlinable @inline(__always)
    mutating func updateInclination(_ a: SIMD3<Float>, gyroscope: SIMD3<Float>, dt: Float,
                                    flags: inout FilterFlags) {
        let atRest = rest.update(gyroscope: gyroscope, accelerometer: a, dt: dt)
        if atRest { flags.insert(.atRest) }
        let norm = squareRoot(dot(a, a))
        if atRest { gravity += min(dt / settings.restFilterTimeConstant, 1) * (norm - gravity) }

        // Leave out samples far from 1 g (impacts, strong linear acceleration), for a while.
        var rejected = false
        if !accelerationFilter.isAveraging,
           abs(norm - gravity) > settings.accelerationRejectionThreshold {
            if accelerationRejectionTime < settings.accelerationRejectionTime {
                accelerationRejectionTime += dt
                rejected = true
            }
        } else {
            accelerationRejectionTime = 0
        }

        if rejected {
            // Hold the filter: a short impact must leave no trace in the filtered gravity.
            flags.insert(.accelerationRejected)
        } else {
            _ = accelerationFilter.update(gyroscopeAttitude.rotate(a), dt: dt)
        }

        // Turn the filtered gravity, seen in the earth frame, upright.
        let filtered = accelerationFilter.output
        let filteredNorm2 = dot(filtered, filtered)
        guard filteredNorm2 > 1e-6 else { return }
        let inverseNorm = reciprocalSquareRoot(filteredNorm2)
        let up = inclinationCorrection.rotate(filtered) * inverseNorm
        let correction: Quaternion
        if up.z > -0.9999 {
            let w = squareRoot((1 + up.z) / 2)
            let s = 1 / (2 * w)
            correction = Quaternion(w: w, x: up.y * s, y: -up.x * s, z: 0)
        } else {
            correction = Quaternion(w: 0, x: 1, y: 0, z: 0)
        }
        inclinationCorrection = (correction * inclinationCorrection).normalized

        updateBias(restRate: atRest ? rest.gyroscope.output : nil, usable: !rejected,
                   inverseGravity: inverseNorm, angularRate: gyroscope, dt: dt)
    }

    /// One step of the bias Kalman filter: at rest the filtered gyroscope is the bias; in
    /// motion the drift of the filtered gravity in I measures the world-horizontal bias.
    @inlinable @inline(__always)
    mutating func updateBias(restRate: SIMD3<Float>?, usable: Bool, inverseGravity: Float,
                             angularRate: SIMD3<Float>, dt: Float) {
        let bias = biasEstimator.bias
        let bodyToEarth = inclinationCorrection * gyroscopeAttitude
        let rowX = bodyToEarth.inverseRotate(SIMD3(1, 0, 0))
        let rowY = bodyToEarth.inverseRotate(SIMD3(0, 1, 0))
        let rows = rotationFilter.update(
            SIMD8(rowX.x, rowX.y, rowX.z, rowY.x, rowY.y, rowY.z, dot(rowX, bias), dot(rowY, bias)),
            dt: dt)
        if let restRate {
            guard settings.restBiasEstimation else { return }
            let variance = restVarianceTime / dt
            biasEstimator.update(h: SIMD3(1, 0, 0), measurement: restRate.x, variance: variance)
            biasEstimator.update(h: SIMD3(0, 1, 0), measurement: restRate.y, variance: variance)
            biasEstimator.update(h: SIMD3(0, 0, 1), measurement: restRate.z, variance: variance)
            return
        }
        guard settings.motionBiasEstimation, usable, !rotationFilter.isAveraging else { return }
        // Earth-frame drift of I: the filtered gravity turns as ω_drift × up, with
        // ω_drift = R (b − b̂); filtered alike, LP(R b) = drift + LP(R b̂).
        let drift = inclinationCorrection.rotate(accelerationFilter.rate) * inverseGravity
        // Scale-factor and misalignment errors grow with the rotation rate (in °/s here).
        let rateNoise = settings.biasMotionRateUncertainty * PoiseFilterBiasEstimator.degrees
        let variance = (motionVarianceTime
            + rateNoise * rateNoise * dot(angularRate, angularRate) * accelerationFilter.timeConstant) / dt
        biasEstimator.update(h: SIMD3(rows[0], rows[1], rows[2]),
                             measurement: -drift.y + rows[6], variance: variance)
        biasEstimator.update(h: SIMD3(rows[3], rows[4], rows[5]),
                             measurement: drift.x + rows[7], variance: variance)
        // The vertical bias is unobservable from gravity: pull it weakly towards zero so its
        // uncertainty stays bounded.
        let rowZ = bodyToEarth.inverseRotate(SIMD3(0, 0, 1))
        biasEstimator.update(h: rowZ, measurement: 0,
                             variance: variance / max(settings.biasVerticalForgettingFactor, 1e-10))
    }
}
