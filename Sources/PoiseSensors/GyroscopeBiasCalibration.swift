/// Gyroscope bias at start-up: the average of N samples while the board is still.
///
/// Refuses (`CalibrationError.moving`) when any gyro axis's standard deviation exceeds
/// `maximumStandardDeviation`, or the accelerometer's exceeds `maximumAccelerometerDeviation`:
/// motion would otherwise be mistaken for bias.
public struct GyroscopeBiasCalibration: Sendable {
    public struct Settings: Sendable, Equatable {
        /// Samples to average (2 s at 200 Hz by default).
        public var samples = 400
        /// rad/s. The MPU-9250's noise at 92 Hz bandwidth is about 0.0017 rad/s RMS.
        public var maximumStandardDeviation: Float = 0.005
        /// m/s². Accelerometer noise at 99 Hz bandwidth is about 0.03 m/s² RMS.
        public var maximumAccelerometerDeviation: Float = 0.1
        public init() {}
        public static let `default` = Settings()
    }

    public let settings: Settings
    public private(set) var gyroscope = VectorStatistics()
    public private(set) var accelerometer = VectorStatistics()

    public init(settings: Settings = .default) { self.settings = settings }

    /// Adds one sample (body frame, uncalibrated gyro in rad/s, accel in m/s²).
    public mutating func add(gyroscope rate: SIMD3<Float>, accelerometer force: SIMD3<Float>) {
        gyroscope.add(rate)
        accelerometer.add(force)
    }

    /// Whether enough samples were collected.
    public var isComplete: Bool { gyroscope.count >= settings.samples }

    /// The bias, rad/s; subtract it from raw rates.
    public func bias() throws(CalibrationError) -> SIMD3<Float> {
        guard gyroscope.count >= settings.samples else {
            throw .tooFewSamples(got: gyroscope.count, need: settings.samples)
        }
        let gyroDeviation = gyroscope.standardDeviation.max()
        guard gyroDeviation <= settings.maximumStandardDeviation else {
            throw .moving(sensor: "gyroscope", standardDeviation: gyroDeviation,
                          threshold: settings.maximumStandardDeviation, unit: "rad/s")
        }
        let accelDeviation = accelerometer.standardDeviation.max()
        guard accelDeviation <= settings.maximumAccelerometerDeviation else {
            throw .moving(sensor: "accelerometer", standardDeviation: accelDeviation,
                          threshold: settings.maximumAccelerometerDeviation, unit: "m/s²")
        }
        return gyroscope.average
    }
}
