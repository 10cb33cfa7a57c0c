import PoiseMath

/// The processed motion of the device, in the manner of Core Motion's `CMDeviceMotion`:
/// attitude plus gravity and user acceleration separated, bias-corrected rotation rate, the
/// calibrated field and a compass heading. Computed per sample from a filter's output.
///
/// Units are SI (m/s², not g as in Core Motion). Vectors are in the body frame.
@frozen
public struct DeviceMotion: Sendable, Equatable {
    /// Standard gravity, m/s².
    public static var standardGravity: Float { Gravity.standard }

    /// Body-to-ENU attitude.
    public var attitude: Quaternion
    /// Gravity in the body frame, m/s², pointing down: `(0, 0, −9.80665)` when lying flat.
    public var gravity: SIMD3<Float>
    /// Acceleration the user (or the robot) imparts, m/s², body frame: the accelerometer's
    /// specific force minus the 1 g reaction to gravity, i.e. `accelerometer + gravity`.
    /// Zero at rest.
    public var userAcceleration: SIMD3<Float>
    /// Rotation rate with the filter's bias estimate removed, rad/s.
    public var rotationRate: SIMD3<Float>
    /// The magnetometer reading, µT (as calibrated upstream); `nil` in 6D.
    public var magneticField: SIMD3<Float>?
    /// Compass heading, degrees in [0, 360), clockwise from magnetic north, of the direction
    /// the device points: its top edge (+y) when lying flat, its back (−z) when standing
    /// upright, blended continuously in between (the horizontal part of `y − z`).
    /// `nil` when the attitude is not north-referenced (6D: its heading is arbitrary) or the
    /// pointing direction is vertical.
    public var heading: Float?
    /// The filter's flags: initialising, accelerationRejected, magneticDisturbance, atRest…
    public var flags: FilterFlags
    /// The filter's gyroscope bias estimate, rad/s, and its one-sigma uncertainty.
    public var gyroscopeBias: SIMD3<Float>
    public var gyroscopeBiasUncertainty: Float

    /// Derives the motion from a filter's `attitude` and `status` after it fused `sample`.
    ///
    /// - Parameter northReferenced: whether the attitude's heading refers to magnetic north;
    ///   by default, whether `sample` has a magnetometer reading. Pass `true` explicitly when
    ///   a 9D filter is fed samples without a new magnetometer reading in between.
    #if !DEBUG  // the checker needs whole-module builds to see same-module callees
    @_noAllocation @_noLocks
    #endif
    public init(attitude: Quaternion, status: FilterStatus, sample: InertialSample,
                northReferenced: Bool? = nil) {
        let q = StartupAlignment.sanitised(attitude, fallback: .identity)
        self.attitude = q
        gravity = q.inverseRotate(SIMD3(0, 0, -Self.standardGravity))
        userAcceleration = sample.accelerometer + gravity
        rotationRate = PoiseFilterBiasEstimator.corrected(sample.gyroscope, bias: status.gyroscopeBias,
                                                          scale: status.gyroscopeScale)
        magneticField = sample.magnetometer
        flags = status.flags
        gyroscopeBias = status.gyroscopeBias
        gyroscopeBiasUncertainty = status.gyroscopeBiasUncertainty
        heading = nil
        if northReferenced ?? (sample.magnetometer != nil) {
            heading = Self.heading(of: q)
        }
    }

    /// Compass heading in degrees [0, 360) of the device's pointing direction (see
    /// `heading`), or `nil` when that direction is vertical.
    @inlinable
    public static func heading(of attitude: Quaternion) -> Float? {
        let pointing = attitude.rotate(SIMD3(0, 1, -1))
        let east = pointing.x, north = pointing.y
        guard east * east + north * north > 1e-6 else { return nil }
        var degrees = _atan2(east, north) * (180 / Float.pi)
        if degrees < 0 { degrees += 360 }
        if degrees >= 360 { degrees -= 360 }
        return degrees
    }
}
