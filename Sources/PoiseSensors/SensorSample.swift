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

    @inlinable
    public init(accelerometer: SIMD3<Float>, gyroscope: SIMD3<Float>, magnetometer: SIMD3<Float>?,
                magnetometerIsNew: Bool, temperature: Float, saturated: Bool) {
        self.accelerometer = accelerometer
        self.gyroscope = gyroscope
        self.magnetometer = magnetometer
        self.magnetometerIsNew = magnetometerIsNew
        self.temperature = temperature
        self.saturated = saturated
    }
}

/// Where the driver stands; the loop goes to its safe state while `lost`.
public enum SensorState: String, Sendable, Equatable {
    /// Resetting and configuring the chip; no samples yet.
    case starting
    /// Delivering samples.
    case running
    /// Too many consecutive failures (or implausible data); re-initialising periodically.
    case lost
}

/// What the driver has counted since it was created.
public struct SensorCounters: Sendable, Equatable {
    /// Calls to `tick`.
    public var ticks = 0
    /// Samples delivered.
    public var samples = 0
    /// Failed read attempts (including those a retry recovered).
    public var readFailures = 0
    /// Reads that succeeded on a retry within the same tick.
    public var recoveredByRetry = 0
    /// Ticks whose read failed after all retries.
    public var failedTicks = 0
    /// Times the sensor was declared lost.
    public var lost = 0
    /// Re-initialisation attempts after being lost, and how many succeeded.
    public var reinitAttempts = 0
    public var reinitSuccesses = 0
    /// Times the data was declared stuck.
    public var stuckData = 0
    /// Samples with a saturated axis.
    public var saturatedSamples = 0
    /// FIFO overflows and misaligned counts (each followed by a FIFO reset).
    public var fifoOverflows = 0
    public var fifoMisaligned = 0
    /// Frames read from the FIFO, and ticks that left frames behind because of the cap.
    public var fifoFrames = 0
    public var fifoCapped = 0
    /// Magnetometer reads, new fields, reads without new data, overflows (HOFL), failures.
    public var magnetometerReads = 0
    public var magnetometerSamples = 0
    public var magnetometerNotReady = 0
    public var magnetometerOverflows = 0
    public var magnetometerFailures = 0

    public init() {}
}
