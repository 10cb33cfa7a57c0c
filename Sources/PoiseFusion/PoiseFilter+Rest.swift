import PoiseMath

/// Rest detection for `PoiseFilter`: the sensor is at rest when its low-pass filtered angular
/// rate is small (the bias alone, at most a few °/s) and the inputs stay close to their
/// low-pass values, continuously for a minimum time.
///
/// "Close" is judged on a band-limited deviation, not on each sample: a sample's noise grows
/// with the square root of the sample rate (a consumer accelerometer's 800 µg/√Hz is
/// 0.25 m/s² per sample at 1 kHz, half the threshold), so a per-sample test declares rest
/// less often the faster the sensor is read. The low-pass already holds that band-limited
/// deviation in its state: its rate obeys ÿ = ω²(u − y) − 2ζω ẏ, i.e. τ ẏ is the deviation
/// u − y averaged over τ/2 (2ζω = 2/τ, ω²/2ζω = 1/τ), whose noise is the sensor's density
/// over a fixed band at any rate. A 30 ms 3 g tap still moves it by several m/s².
@frozen
public struct PoiseFilterRestDetector: Sendable {
    /// Low-pass filtered gyroscope (lanes 0–2, rad/s) and accelerometer (lanes 4–6, m/s²):
    /// one eight-lane filter instead of two three-lane ones, since both share τ and dt (each
    /// lane computes exactly what its own filter would, in half the instructions).
    public var lowPass: PoiseFilterLowPass<SIMD8<Float>>
    /// How long both conditions have held, s.
    public var quietTime: Float
    /// How long the accelerometer's deviation has stayed under `stillFraction` of its
    /// threshold, s; −∞ once the gravity low-pass has restarted, until the body moves.
    public var stillTime: Float
    @usableFromInline let gyroscopeThresholdSquared: Float
    /// The deviation thresholds as bounds on the squared rate |ẏ|² (÷ τ²).
    @usableFromInline let gyroscopeRateThresholdSquared: Float
    @usableFromInline let accelerometerRateThresholdSquared: Float
    @usableFromInline let stillRateThresholdSquared: Float
    /// Bound on each gyroscope sample's own deviation, (rad/s)².
    @usableFromInline let gyroscopeSampleThresholdSquared: Float
    @usableFromInline let minimumTime: Float
    /// Σ g·dt over the quiet period so far (lanes 0–2, rad) and its duration (lane 3, s).
    ///
    /// Rest is declared only after `minimumTime` of quiet, but the body was at rest from the
    /// start of it: the filtered rate measures the bias only from then on, and forgets the
    /// samples before. The mean over the whole quiet period is the bias measured on all of
    /// them (at start-up that adds the first τ + `minimumTime`, 2 s by default). After a motion
    /// the sum starts only once the low-pass has been quiet for its time constant, so that
    /// the motion's tail — a rotation dying out under the rate threshold — stays out of it.
    public var quietSum: SIMD4<Float>
    /// Whether the quiet period's mean has gone to the bias estimate (once per rest period).
    public var quietMeanApplied: Bool

    @inlinable
    public init(settings: PoiseFilter.Settings) {
        lowPass = PoiseFilterLowPass(timeConstant: settings.restFilterTimeConstant)
        quietTime = 0
        stillTime = 0
        let tau = lowPass.timeConstant
        let gyroscope = settings.restGyroscopeThreshold
        let accelerometer = settings.restAccelerometerThreshold
        gyroscopeThresholdSquared = gyroscope * gyroscope
        // The rate's wobble about its mean may be twice the mean's bound, so that an
        // oscillation whose mean is zero is still not taken for rest.
        gyroscopeRateThresholdSquared = 4 * gyroscope * gyroscope / (tau * tau)
        let sample = 2 * gyroscope * Self.sampleFactor
        gyroscopeSampleThresholdSquared = sample * sample
        accelerometerRateThresholdSquared = accelerometer * accelerometer / (tau * tau)
        let still = accelerometer * Self.stillFraction
        stillRateThresholdSquared = still * still / (tau * tau)
        minimumTime = settings.restTime
        quietSum = .zero
        quietMeanApplied = false
    }

    /// Share of the accelerometer threshold under which a resting body counts as still.
    /// Stopped, the deviation is sensor noise alone (under 0.02 m/s² from industrial to
    /// consumer parts); a smooth acceleration, which the low-pass lags behind by its slope
    /// times τ, keeps tenths of a m/s²: it passes the rest test but not this one.
    @inlinable static var stillFraction: Float { 0.2 }

    /// Factor on the wobble bound for each gyroscope sample's own deviation. The band-limited
    /// deviation lags the start of a rotation by τ/2, and meanwhile the filtered rate — the rest
    /// bias measurement — takes it in; one sample beyond this bound ends rest at once. 2 × 4 °/s
    /// is 8.5 times the per-axis noise of a consumer gyroscope read at 1 kHz (0.94 °/s), so
    /// noise alone practically never crosses it.
    @inlinable static var sampleFactor: Float { 2 }

    /// Low-pass filtered gyroscope, rad/s (the rest bias measurement).
    @inlinable public var gyroscope: SIMD3<Float> { lowPass.output.lowHalf[SIMD3(0, 1, 2)] }
    /// Low-pass filtered accelerometer, m/s².
    @inlinable public var accelerometer: SIMD3<Float> { lowPass.output.highHalf[SIMD3(0, 1, 2)] }
    /// The filters' time constant, s.
    @inlinable public var timeConstant: Float { lowPass.timeConstant }

    /// True when the sensor has been quiet for the minimum rest time.
    @inlinable public var isAtRest: Bool { quietTime >= minimumTime }

    /// Still for the low-pass's time constant, and not restarted since it last moved: what
    /// the low-pass holds is the body at rest, not a lagging acceleration.
    @inlinable public var isStill: Bool { stillTime >= lowPass.timeConstant }

    /// The gravity low-pass has restarted: not again until the body has moved.
    @inlinable public mutating func restarted() { stillTime = -.infinity }

    /// Feeds one sample; returns whether the sensor is at rest.
    @inlinable @inline(__always)
    public mutating func update(gyroscope g: SIMD3<Float>, accelerometer a: SIMD3<Float>,
                                dt: Float) -> Bool {
        let both = lowPass.update(SIMD8(lowHalf: SIMD4(g, 0), highHalf: SIMD4(a, 0)), dt: dt)
        let gLow = both.lowHalf[SIMD3(0, 1, 2)]
        let gyroscopeRate = lowPass.rate.lowHalf[SIMD3(0, 1, 2)]
        let accelerometerRate = lowPass.rate.highHalf[SIMD3(0, 1, 2)]
        let accelerometerRate2 = dot(accelerometerRate, accelerometerRate)
        let gyroscopeSample = g - gLow
        if !lowPass.isAveraging, dot(gLow, gLow) < gyroscopeThresholdSquared,
           dot(gyroscopeRate, gyroscopeRate) < gyroscopeRateThresholdSquared,
           dot(gyroscopeSample, gyroscopeSample) < gyroscopeSampleThresholdSquared,
           accelerometerRate2 < accelerometerRateThresholdSquared {
            quietTime += dt
            stillTime = accelerometerRate2 < stillRateThresholdSquared ? stillTime + dt : 0
            if !quietMeanApplied, quietTime >= lowPass.timeConstant || quietSum.w > 0 {
                quietSum += SIMD4(g, 1) * dt
            }
        } else if lowPass.isAveraging {
            // Start-up: nothing moved before the first sample, so every sample counts; should
            // the body be moving, the first test after the averaging ends the sum.
            quietTime = 0
            stillTime = 0
            quietSum += SIMD4(g, 1) * dt
        } else {
            interrupt()
        }
        return isAtRest
    }

    /// The mean rate over the quiet period, rad/s, and its duration, s; nil before a sample.
    @inlinable public var quietMean: (rate: SIMD3<Float>, duration: Float)? {
        let sum = quietSum
        return sum.w > 0 ? (SIMD3(sum.x, sum.y, sum.z) * (1 / sum.w), sum.w) : nil
    }

    /// The gyroscope readings now arrive less `offset` (rad/s): the filtered rate and the
    /// quiet-time sum move as if they always had.
    @inlinable
    public mutating func readingsShift(by offset: SIMD3<Float>) {
        lowPass.output -= SIMD8(lowHalf: SIMD4(offset, 0), highHalf: .zero)
        quietSum -= SIMD4(offset, 0) * quietSum.w
    }

    /// Ends the quiet period (also when the accelerometer is unusable).
    @inlinable
    public mutating func interrupt() {
        quietTime = 0
        stillTime = 0
        quietSum = .zero
        quietMeanApplied = false
    }
}
