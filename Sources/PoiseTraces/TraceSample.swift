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

extension TraceSample {
    /// The value of a standard sensor or truth column by role (`TraceColumns.roles`, 1…13:
    /// ax…az, gx…gz, mx…mz, qw…qz); nil for an absent optional value or any other role.
    /// Time (role 0) is a Double and is read from `time`. Both writers' `write(_:)` use it.
    @inlinable @inline(__always) @_semantics("no_performance_analysis") @_noAllocation
    public func value(ofRole role: UInt8) -> Float? {
        switch role {
        case 1...3: return accelerometer[Int(role) - 1]
        case 4...6: return gyroscope[Int(role) - 4]
        case 7...9: return magnetometer.map { $0[Int(role) - 7] }
        case 10...13: return truth.map { $0.components[Int(role) - 10] }
        default: return nil
        }
    }
}
