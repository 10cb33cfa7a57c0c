/// One calibrated sample from the driver, body frame, SI units.
@frozen
public struct SensorSample: Sendable, Equatable {
    /// Specific force, m/s².
    public var accelerometer: SIMD3<Float>
    /// Angular rate, rad/s.
    public var gyroscope: SIMD3<Float>
    /// The latest magnetic field, µT; `nil` when running 6D (no or failed magnetometer).
    /// The AK8963 is read after the inertial sample is delivered, so the field may be up to
    /// one tick older than the accelerometer and gyroscope values.
    public var magnetometer: SIMD3<Float>?
    /// The magnetometer value arrived since the previous sample.
    public var magnetometerIsNew: Bool
    /// Die temperature, °C.
    public var temperature: Float
    /// An accel or gyro axis sat at the end of its range: the true value may be larger.
    public var saturated: Bool
    /// A gyroscope axis was at (or within a few counts of) the end of its range: the filter
    /// reports its attitude as not converged until the accelerometer re-establishes it.
    public var gyroscopeClipped: Bool

    @inlinable
    public init(accelerometer: SIMD3<Float>, gyroscope: SIMD3<Float>, magnetometer: SIMD3<Float>?,
                magnetometerIsNew: Bool, temperature: Float, saturated: Bool, gyroscopeClipped: Bool = false) {
        self.gyroscopeClipped = gyroscopeClipped
        self.accelerometer = accelerometer
        self.gyroscope = gyroscope
        self.magnetometer = magnetometer
        self.magnetometerIsNew = magnetometerIsNew
        self.temperature = temperature
        self.saturated = saturated
    }
}

/// Where the driver stands; the loop goes to its safe state while `lost`.
public enum SensorState: UInt8, Sendable, Equatable, BitwiseCopyable {
    /// Resetting and configuring the chip; no samples yet.
    case starting = 0
    /// Delivering samples.
    case running = 1
    /// Too many consecutive failures (or implausible data); re-initialising periodically.
    case lost = 2
}
