import PoiseMath

/// Rest detection for `PoiseFilter`: the sensor is at rest when its low-pass filtered angular
/// rate is small (the bias alone, at most a few °/s) and the accelerometer stays close to its
/// low-pass value, continuously for a minimum time.
@frozen
public struct PoiseFilterRestDetector: Sendable {
    /// Low-pass filtered gyroscope (lanes 0–2, rad/s) and accelerometer (lanes 4–6, m/s²):
    /// one eight-lane filter instead of two three-lane ones, since both share τ and dt (each
    /// lane computes exactly what its own filter would, in half the instructions).
    public var lowPass: PoiseFilterLowPass<SIMD8<Float>>
    /// How long both conditions have held, s.
    public var quietTime: Float
    @usableFromInline let gyroscopeThresholdSquared: Float
    @usableFromInline let accelerometerThresholdSquared: Float
    @usableFromInline let minimumTime: Float

    @inlinable
    public init(settings: PoiseFilter.Settings) {
        lowPass = PoiseFilterLowPass(timeConstant: settings.restFilterTimeConstant)
        quietTime = 0
        gyroscopeThresholdSquared = settings.restGyroscopeThreshold * settings.restGyroscopeThreshold
        accelerometerThresholdSquared =
            settings.restAccelerometerThreshold * settings.restAccelerometerThreshold
        minimumTime = settings.restTime
    }

    /// Low-pass filtered gyroscope, rad/s (the rest bias measurement).
    @inlinable public var gyroscope: SIMD3<Float> { lowPass.output.lowHalf[SIMD3(0, 1, 2)] }
    /// Low-pass filtered accelerometer, m/s².
    @inlinable public var accelerometer: SIMD3<Float> { lowPass.output.highHalf[SIMD3(0, 1, 2)] }
    /// The filters' time constant, s.
    @inlinable public var timeConstant: Float { lowPass.timeConstant }

    /// True when the sensor has been quiet for the minimum rest time.
    @inlinable public var isAtRest: Bool { quietTime >= minimumTime }

    /// Feeds one sample; returns whether the sensor is at rest.
    @inlinable @inline(__always)
    public mutating func update(gyroscope g: SIMD3<Float>, accelerometer a: SIMD3<Float>,
                                dt: Float) -> Bool {
        let both = lowPass.update(SIMD8(lowHalf: SIMD4(g, 0), highHalf: SIMD4(a, 0)), dt: dt)
        let gLow = both.lowHalf[SIMD3(0, 1, 2)]
        let aLow = both.highHalf[SIMD3(0, 1, 2)]
        let deviation = a - aLow
        let gyroscopeDeviation = g - gLow
        // Both the filtered rate and the raw rate's wobble about it must be small, so that an
        // oscillation whose mean is zero is not taken for rest.
        if !lowPass.isAveraging, dot(gLow, gLow) < gyroscopeThresholdSquared,
           dot(gyroscopeDeviation, gyroscopeDeviation) < 4 * gyroscopeThresholdSquared,
           dot(deviation, deviation) < accelerometerThresholdSquared {
            quietTime += dt
        } else {
            quietTime = 0
        }
        return isAtRest
    }

    /// Forgets the quiet time (e.g. when the accelerometer is unusable).
    @inlinable
    public mutating func interrupt() { quietTime = 0 }
}
