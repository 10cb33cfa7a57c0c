import Foundation
import PoiseFusion
import PoiseMath
import Testing

/// Tumbles past the gyroscope's range: the rate reads the end of the range (flagged, as the
/// MPU-9250 driver flags it), the integrated attitude goes wrong by tens of degrees, and the
/// filter must say so (`notConverged`) until the accelerometer has re-established it once the
/// sensor is still — and never claim convergence while wrong.
@Suite struct GyroscopeClippingTests {
    struct Outcome {
        /// Largest inclination error while the filter reported convergence after the tumble, °.
        var worstConvergedError = 0.0
        /// Largest inclination error during and after the tumble, converged or not, °.
        var worstError = 0.0
        /// Time from the moment the sensor is still to the flag clearing, s (.infinity: never).
        var recovery = Double.infinity
        /// Inclination and heading errors at the end, °.
        var finalInclination = 0.0, finalHeading = 0.0
        /// A clipped sample was flagged not converged at once.
        var flaggedAtOnce = false
    }

    /// One seeded tumble: 4 s at rest, a spin at `overRange` × the range about a random axis
    /// with a wobbling axis and ±5 m/s² of linear acceleration, a 0.3 s slow-down, then still at
    /// a random attitude for 4 s. 200 Hz, accelerometer noise 0.05 m/s², gyroscope 0.2 °/s.
    static func tumble(range degreesPerSecond: Double, seed: UInt64, magnetometer: Bool, filter: inout some AttitudeFilter) -> Outcome {
        var random = SplitMix(seed: seed)
        let dt: Float = 0.005, range = Float(degreesPerSecond * .pi / 180)
        let field = SIMD3<Float>(0, 20, -40), gravity = SIMD3<Float>(0, 0, 9.81)
        var truth = Quaternion(rotationVector: SIMD3(random.uniform(-0.2, 0.2), random.uniform(-0.2, 0.2), random.uniform(-3, 3)))
        let axis = SIMD3(random.uniform(-1, 1), random.uniform(-1, 1), random.uniform(-1, 1))
        let spinAxis = axis / max(squareRoot(dot(axis, axis)), 1e-3)
        let speed = range * random.uniform(1.3, 3)
        let spinTime = random.uniform(0.5, 2)
        let start: Float = 4, stop = start + spinTime + 0.3, end = stop + 4
        var outcome = Outcome()
        var t: Float = 0
        var wasClipped = false
        while t < end {
            // Body rate: the spin (wobbling), slowed linearly to zero over the last 0.3 s.
            var rate = SIMD3<Float>.zero
            var linear = SIMD3<Float>.zero
            if t >= start && t < stop {
                let fade = min(1, (stop - t) / 0.3)
                let wobble = SIMD3(sinf(3 * t), cosf(2 * t), sinf(5 * t)) * 0.3
                rate = (spinAxis + wobble) * speed * fade
                linear = SIMD3(random.uniform(-5, 5), random.uniform(-5, 5), random.uniform(-5, 5))
            }
            truth = (truth * Quaternion(rotationVector: rate * dt)).normalized
            var gyroscope = rate + SIMD3(random.normal(), random.normal(), random.normal()) * (0.2 * .pi / 180)
            let clipped = any(gyroscope .>= SIMD3(repeating: range)) || any(gyroscope .<= SIMD3(repeating: -range))
            gyroscope = gyroscope.clamped(lowerBound: SIMD3(repeating: -range), upperBound: SIMD3(repeating: range))
            let accelerometer = truth.inverseRotate(gravity + linear)
                + SIMD3(random.normal(), random.normal(), random.normal()) * 0.05
            let m: SIMD3<Float>? = magnetometer ? truth.inverseRotate(field) + SIMD3(random.normal(), random.normal(), random.normal()) * 0.3 : nil
            // As the tick does: other filters hear of clipping from `loseConvergence`.
            filter.updateTrackingConvergence(InertialSample(accelerometer: accelerometer, gyroscope: gyroscope,
                                                            magnetometer: m, gyroscopeClipped: clipped), dt: dt)
            t += dt
            let converged = !filter.status.flags.contains(.notConverged)
            if clipped && !wasClipped { outcome.flaggedAtOnce = !converged }
            wasClipped = wasClipped || clipped
            guard t > start else { continue }
            let error = Double(inclinationError(filter.attitude, truth))
            outcome.worstError = max(outcome.worstError, error)
            if converged && wasClipped {
                outcome.worstConvergedError = max(outcome.worstConvergedError, error)
                if t >= stop && outcome.recovery.isInfinite { outcome.recovery = Double(t - stop) }
            }
            outcome.finalInclination = error
            outcome.finalHeading = Double(abs(wrappedAngle(heading(filter.attitude) - heading(truth)))) * 180 / .pi
        }
        return outcome
    }

    static func inclinationError(_ a: Quaternion, _ b: Quaternion) -> Float {
        let up = a.inverseRotate(SIMD3(0, 0, 1)), trueUp = b.inverseRotate(SIMD3(0, 0, 1))
        return acosf(max(-1, min(1, dot(up, trueUp)))) * 180 / .pi
    }

    /// Heading of the body's forward axis (y, or x when y is near vertical), rad.
    static func heading(_ q: Quaternion) -> Float {
        var forward = q.rotate(SIMD3(0, 1, 0))
        if abs(forward.z) > 0.9 { forward = q.rotate(SIMD3(1, 0, 0)) }
        return atan2f(forward.x, forward.y)
    }

    /// The default filter, 6D and 9D, 12 seeded tumbles per range.
    @Test(arguments: [250.0, 2000.0], [false, true])
    func aTumblePastTheRangeIsFlaggedAndRecoveredOnceStill(range: Double, magnetometer: Bool) {
        var worstConverged = 0.0, worstError = 0.0, slowest = 0.0, worstFinal = 0.0, worstHeading = 0.0
        for seed in 0..<12 {
            var filter = PoiseFilter()
            let o = Self.tumble(range: range, seed: UInt64(seed) &+ (magnetometer ? 1000 : 0), magnetometer: magnetometer,
                                filter: &filter)
            #expect(o.flaggedAtOnce, "seed \(seed)")
            worstConverged = max(worstConverged, o.worstConvergedError)
            worstError = max(worstError, o.worstError)
            slowest = max(slowest, o.recovery)
            worstFinal = max(worstFinal, o.finalInclination)
            worstHeading = max(worstHeading, o.finalHeading)
        }
        print("clipping ±\(Int(range)) °/s \(magnetometer ? "9D" : "6D"): worst error \(worstError)°, "
              + "worst while converged \(worstConverged)°, slowest recovery \(slowest) s, final inclination ≤ \(worstFinal)°"
              + (magnetometer ? ", final heading ≤ \(worstHeading)°" : ""))
        #expect(worstError > 20, "the tumble really loses the attitude")
        #expect(worstConverged < 5)
        #expect(slowest <= 1)
        #expect(worstFinal < 1)
        if magnetometer { #expect(worstHeading < 5) }
    }

    /// The other filters report `notConverged` after clipping too, and clear it only when the
    /// accelerometer agrees with them.
    @Test func theOtherFiltersReportItToo() {
        var madgwick = MadgwickFilter(), mahony = MahonyFilter(), complementary = ComplementaryFilter()
        var mekf = MultiplicativeKalmanFilter()
        for (name, o) in [("madgwick", Self.tumble(range: 250, seed: 7, magnetometer: false, filter: &madgwick)),
                          ("mahony", Self.tumble(range: 250, seed: 7, magnetometer: false, filter: &mahony)),
                          ("complementary", Self.tumble(range: 250, seed: 7, magnetometer: false, filter: &complementary)),
                          ("mekf", Self.tumble(range: 250, seed: 7, magnetometer: false, filter: &mekf))] {
            #expect(o.flaggedAtOnce, "\(name)")
            #expect(o.worstConvergedError < 5, "\(name): \(o.worstConvergedError)°")
        }
    }

    /// A stall or a failsafe (the loop calls `loseConvergence`) is re-established the same way.
    @Test func lostConvergenceReturnsAtRest() {
        var filter = PoiseFilter()
        let sample = InertialSample(accelerometer: SIMD3(0, 0, 9.81), gyroscope: .zero)
        for _ in 0..<1000 { filter.update(sample, dt: 0.005) }
        #expect(!filter.status.flags.contains(.notConverged))
        filter.loseConvergence()
        #expect(filter.status.flags.contains(.notConverged))
        var samples = 0
        while filter.status.flags.contains(.notConverged) && samples < 1000 {
            filter.update(sample, dt: 0.005)
            samples += 1
        }
        // The hold time, 0.5 s, and not much more.
        #expect(samples >= 99 && samples <= 102, "\(samples)")
    }
}

/// A small seeded generator (SplitMix64), for reproducible tumbles.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func uniform(_ low: Float, _ high: Float) -> Float {
        low + (high - low) * Float(next() >> 40) / Float(1 << 24)
    }
    /// Approximately standard normal (sum of four uniforms, scaled).
    mutating func normal() -> Float {
        (uniform(-1, 1) + uniform(-1, 1) + uniform(-1, 1) + uniform(-1, 1)) * 0.866
    }
}
