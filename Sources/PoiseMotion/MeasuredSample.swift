import PoiseMath

/// One simulated IMU reading with its ground truth.
public struct MeasuredSample: Sendable, Equatable {
    /// Sample index from 0.
    public var index: Int
    /// Seconds since the start: `Double(index) / sampleRate`.
    public var time: Double
    /// Accelerometer, m/s², body frame (specific force plus errors).
    public var accelerometer: SIMD3<Float>
    /// Gyroscope, rad/s, body frame.
    public var gyroscope: SIMD3<Float>
    /// Magnetometer, µT, body frame.
    public var magnetometer: SIMD3<Float>
    /// True attitude, body-to-ENU.
    public var truth: Quaternion
    /// Whether the sample is in a movement segment.
    public var movement: Bool
    /// The gyroscope bias in effect for this sample (rad/s), for checking bias estimators.
    public var gyroscopeBias: SIMD3<Float>

    public init(
        index: Int, time: Double, accelerometer: SIMD3<Float>, gyroscope: SIMD3<Float>, magnetometer: SIMD3<Float>,
        truth: Quaternion, movement: Bool, gyroscopeBias: SIMD3<Float> = .zero
    ) {
        self.index = index
        self.time = time
        self.accelerometer = accelerometer
        self.gyroscope = gyroscope
        self.magnetometer = magnetometer
        self.truth = truth
        self.movement = movement
        self.gyroscopeBias = gyroscopeBias
    }
}
