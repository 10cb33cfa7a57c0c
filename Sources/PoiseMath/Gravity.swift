// Gravity in the body frame and the acceleration the user applies.

/// Gravity constants. (A namespace rather than a global so it cannot clash with modules
/// that define their own `standardGravity`.)
public enum Gravity {
    /// Standard gravity, m/s² (the conventional value, 9.80665).
    @inlinable public static var standard: Float { 9.80665 }
}

extension Quaternion {
    /// The gravitational acceleration in the body frame, m/s²: the vector gravity pulls with,
    /// pointing **down**, of length `magnitude`. It is the world "down" vector rotated into the
    /// body frame with this (body-to-world) attitude's inverse.
    ///
    /// Core Motion's `gravity` is the same direction in units of g; divide by
    /// `Gravity.standard` to compare. Example: lying flat, face up (identity attitude in ENU),
    /// gravity is `(0, 0, −9.80665)`.
    ///
    /// - Parameter world: how this attitude's world frame is laid out (down is −z in ENU and
    ///   NWU, +z in NED).
    @inlinable
    public func gravity(magnitude: Float = Gravity.standard, world: WorldAxes = .enu) -> SIMD3<Float> {
        inverseRotate(world.up * -magnitude)
    }

    /// The acceleration the user gives the device, in the body frame, m/s²:
    /// `accelerometer − (−gravity)`.
    ///
    /// An accelerometer measures specific force: at rest it reads the reaction to gravity,
    /// +1 g **up** (lying flat face up it reads `(0, 0, +9.81)`). Removing that reaction, which
    /// is `−gravity(…)`, leaves the acceleration due to motion: here `(0, 0, 0)`.
    /// Units m/s² (Core Motion's `userAcceleration` is in g).
    @inlinable
    public func userAcceleration(accelerometer: SIMD3<Float>,
                                 gravityMagnitude: Float = Gravity.standard,
                                 world: WorldAxes = .enu) -> SIMD3<Float> {
        accelerometer + gravity(magnitude: gravityMagnitude, world: world)
    }

    /// The user acceleration rotated into the world frame, m/s² (x-io Fusion's "earth
    /// acceleration"): zero at rest; in ENU +z is upward acceleration.
    @inlinable
    public func worldUserAcceleration(accelerometer: SIMD3<Float>,
                                      gravityMagnitude: Float = Gravity.standard,
                                      world: WorldAxes = .enu) -> SIMD3<Float> {
        // Rotate the measurement to the world and remove the reaction to gravity (+g·up).
        rotate(accelerometer) - world.up * gravityMagnitude
    }
}
