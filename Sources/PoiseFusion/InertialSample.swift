import PoiseMath

/// One reading of the inertial sensors, in the body frame and SI units.
@frozen
public struct InertialSample: Sendable, Equatable {
    /// Specific force, m/s² (reads +9.81 on z when lying flat, z up).
    public var accelerometer: SIMD3<Float>
    /// Angular rate, rad/s.
    public var gyroscope: SIMD3<Float>
    /// Magnetic flux density, µT; `nil` when there is no new magnetometer reading.
    public var magnetometer: SIMD3<Float>?
    /// A gyroscope axis read at (or within a few counts of) the end of its range: the true
    /// rate may have been larger, so the integrated attitude may be wrong by any amount.
    public var gyroscopeClipped: Bool

    @inlinable
    public init(accelerometer: SIMD3<Float>, gyroscope: SIMD3<Float>, magnetometer: SIMD3<Float>? = nil,
                gyroscopeClipped: Bool = false) {
        self.accelerometer = accelerometer
        self.gyroscope = gyroscope
        self.magnetometer = magnetometer
        self.gyroscopeClipped = gyroscopeClipped
    }
}
