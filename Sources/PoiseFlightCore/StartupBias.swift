/// Measures the gyroscope bias at start-up while the board is still, before arming.
///
/// Averages the gyroscope over `duration`; any sample that turns faster than
/// `stillnessLimit` (the board was moved) restarts the average, so the bias is only taken
/// from a still board. Fixed size; runs in the tick.
@frozen
public struct StartupBias: Sendable {
    /// Seconds of stillness to average; 0 means the configured calibration is used as it is.
    public let duration: Double
    /// Largest rate of a still board, rad/s (a few times the chip's noise plus a worst-case bias).
    public let stillnessLimit: Float
    /// The measured bias once ``ready``, rad/s.
    public var bias: SIMD3<Float> = .zero
    public var ready: Bool
    @usableFromInline var sum: SIMD3<Double> = .zero
    @usableFromInline var count = 0
    @usableFromInline var since = 0.0

    public init(duration: Double, stillnessLimit: Float = 0.1) {
        self.duration = duration
        self.stillnessLimit = stillnessLimit
        ready = duration <= 0
    }

    /// Adds one gyroscope reading taken at `time`, s.
    @inlinable
    public mutating func add(_ gyroscope: SIMD3<Float>, at time: Double) {
        guard !ready else { return }
        let moving = !(abs(gyroscope.x) < stillnessLimit && abs(gyroscope.y) < stillnessLimit
                       && abs(gyroscope.z) < stillnessLimit)
        if moving || count == 0 {
            sum = .zero
            count = 0
            since = time
            if moving { return }
        }
        sum += SIMD3<Double>(gyroscope)
        count += 1
        if time - since >= duration && count > 0 {
            bias = SIMD3<Float>(sum / Double(count))
            ready = true
        }
    }
}
