import PoiseMath

/// The exact state of a scripted motion at one instant: what an ideal IMU would measure.
public struct MotionSample: Sendable, Equatable {
    /// Sample index from 0.
    public var index: Int
    /// Seconds since the start of the script: exactly `Double(index) / sampleRate`.
    public var time: Double
    /// True attitude, body-to-world (ENU), unit quaternion.
    public var attitude: Quaternion
    /// True angular rate in the body frame, rad/s.
    public var angularRate: SIMD3<Float>
    /// True specific force in the body frame, m/s²:
    /// `attitude⁻¹ · (linearAcceleration + (0, 0, g))` (what an accelerometer measures).
    public var specificForce: SIMD3<Float>
    /// True magnetic field in the body frame, µT.
    public var magneticField: SIMD3<Float>
    /// Linear acceleration of the body in the world frame (ENU), m/s², without gravity.
    public var linearAcceleration: SIMD3<Float>
    /// Whether the instant lies in a movement segment (anything but `rest`).
    public var movement: Bool
    /// Index of the segment (in ``MotionScript/segments``) the instant belongs to.
    public var segmentIndex: Int

    public init(
        index: Int, time: Double, attitude: Quaternion, angularRate: SIMD3<Float>, specificForce: SIMD3<Float>,
        magneticField: SIMD3<Float>, linearAcceleration: SIMD3<Float>, movement: Bool, segmentIndex: Int
    ) {
        self.index = index
        self.time = time
        self.attitude = attitude
        self.angularRate = angularRate
        self.specificForce = specificForce
        self.magneticField = magneticField
        self.linearAcceleration = linearAcceleration
        self.movement = movement
        self.segmentIndex = segmentIndex
    }
}
