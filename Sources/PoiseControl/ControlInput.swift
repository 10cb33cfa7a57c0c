import PoiseMath

/// What a controller reads each tick: the estimate and the gyroscope, SI units.
@frozen
public struct ControlInput: Sendable {
    /// Core Motion Euler angles of the body-to-world attitude, rad.
    public var attitude: EulerAngles
    /// Bias-corrected body angular rate, rad/s (x: pitch rate, y: roll rate, z: yaw rate).
    public var rotationRate: SIMD3<Float>
    /// Seconds since the previous tick's sample (the sensor's timestamps, not the nominal rate).
    public var dt: Float

    @inlinable
    public init(attitude: EulerAngles, rotationRate: SIMD3<Float>, dt: Float) {
        self.attitude = attitude
        self.rotationRate = rotationRate
        self.dt = dt
    }
}
