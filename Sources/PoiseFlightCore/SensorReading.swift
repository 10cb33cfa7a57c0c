import PoiseMath

/// What the board's sensor gave one tick.
@frozen
public struct SensorReading: Sendable {
    /// The newest calibrated sample, or `nil` when the read failed or the sensor is starting
    /// or lost.
    public var sample: SensorSample?
    /// When the sample was taken, s on the board's clock since the loop started: the filter's
    /// dt is the difference of these, not the nominal period.
    public var time: Double
    /// Where the driver stands.
    public var state: SensorState
    /// This tick's read failed after the driver's retries — the driver's own count of failed
    /// ticks went up — not merely "no new sample yet" (a FIFO or a sample rate below the loop
    /// rate has ticks without one). Both boards take it from the driver.
    public var readFailed: Bool
    /// The simulated world's true body-to-ENU attitude at this tick (NaN on a real board).
    public var truth: Quaternion = Quaternion(w: .nan, x: .nan, y: .nan, z: .nan)
    /// The simulated world's true forward speed, m/s (NaN on a real board or without one).
    public var trueSpeed: Float = .nan
    /// What the driver has to report this tick (saturation, failed reads, a loss), as plain
    /// data: the loop's reporter turns it into log lines off the real-time thread.
    public var notices = SensorNotices()

    /// A sample came this tick (without `!=` on the sample: comparing samples is not needed).
    @inlinable
    public var hasSample: Bool {
        switch sample {
        case .some: true
        case .none: false
        }
    }

    /// The driver declared the sensor lost (a switch: `==` on a String-backed enum compares
    /// strings, which the checked tick may not do).
    @inlinable
    public var isLost: Bool {
        switch state {
        case .lost: true
        case .starting, .running: false
        }
    }

    @inlinable
    public init(sample: SensorSample?, time: Double, state: SensorState, readFailed: Bool = false) {
        self.sample = sample
        self.time = time
        self.state = state
        self.readFailed = readFailed
    }
}
