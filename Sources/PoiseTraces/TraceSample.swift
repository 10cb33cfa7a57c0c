import PoiseMath

/// One row of a trace, in SI units.
public struct TraceSample: Equatable, Sendable {
    /// Time in seconds; strictly increasing within a trace.
    public var time: Double
    /// Specific force in m/s².
    public var accelerometer: SIMD3<Float>
    /// Angular rate in rad/s.
    public var gyroscope: SIMD3<Float>
    /// Magnetic field in µT; `nil` when the trace has no `mx,my,mz` columns or the cells are empty.
    public var magnetometer: SIMD3<Float>?
    /// Reference orientation (body-to-world, Hamilton, w first); `nil` when absent or empty.
    public var truth: Quaternion?

    @inlinable @inline(__always) @_semantics("no_performance_analysis") @_noAllocation
    public init(time: Double, accelerometer: SIMD3<Float>, gyroscope: SIMD3<Float>,
                magnetometer: SIMD3<Float>? = nil, truth: Quaternion? = nil) {
        self.time = time
        self.accelerometer = accelerometer
        self.gyroscope = gyroscope
        self.magnetometer = magnetometer
        self.truth = truth
    }
}
