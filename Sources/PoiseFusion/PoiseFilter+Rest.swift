import PoiseMath

/// Rest detection for `PoiseFilter`: the sensor is at rest when its low-pass filtered angular
/// rate is small (the bias alone, at most a few °/s) and the accelerometer stays close to its
/// low-pass value, continuously for a minimum time.
@frozen
public struct PoiseFilterRestDetector: Sendable {
    /// Low-pass filtered gyroscope, rad/s (the rest bias measurement).
    public var gyroscope: PoiseFilterLowPass<SIMD3<Float>>
    /// Low-pass filtered accelerometer, m/s².
    public var accelerometer: PoiseFilterLowPass<SIMD3<Float>>
    /// How long both conditions have held, s.
    public var quietTime: Float
    @usableFromInline let gyroscopeThresholdSquared: Float
    @usableFromInline let accelerometerThresholdSquared: Float
    @usableFromInline let minimumTime: Float

    @inlinable
    public init(settings: PoiseFilter.Settings) {
        gyroscope = PoiseFilterLowPass(timeConstant: settings.restFilterTimeConstant)
        accelerometer = PoiseFilterLowPass(timeConstant: settings.restFilterTimeConstant)
        quietTime = 0
        gyroscopeThresholdSquared = settings.restGyroscopeThreshold * settings.restGyroscopeThreshold
        accelerometerThresholdSquared =
            settings.restAccelerometerThreshold * settings.restAccelerometerThreshold
        minimumTime = settings.restTime
    }

    /// True when the sensor has been quiet for the minimum rest time.
    @inlinable public var isAtRest: Bool { quietTime >= minimumTime }

    /// Feeds one sample; returns whether the sensor is at rest.
    @inlinable @inline(__always)
    public mutating func update(gyroscope g: SIMD3<Float>, accelerometer a: SIMD3<Float>,
                                dt: Float) -> Bool {
        let gLow = gyroscope.update(g, dt: dt)
        let aLow = accelerometer.update(a, dt: dt)
        let deviation = a - aLow
        let gyroscopeDeviation = g - gLow
        // Both the filtered rate and the raw rate's wobble about it must be small, so that an
        // oscillation whose mean is zero is not taken for rest.
        if !gyroscope.isAveraging, dot(gLow, gLow) < gyroscopeThresholdSquared,
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
