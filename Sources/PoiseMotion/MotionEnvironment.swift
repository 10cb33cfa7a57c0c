import PoiseMath

/// Gravity and the Earth's magnetic field seen by a simulated sensor.
public struct MotionEnvironment: Sendable, Equatable {
    /// Magnitude of gravity, m/s². Standard gravity by default.
    public var gravity: Double
    /// Earth's magnetic field in the world frame (ENU: east, north, up) before declination,
    /// µT: `(0, horizontal, vertical)`. The default `(0, 20, −40)` is a mid-latitude northern
    /// field: 20 µT toward north, 40 µT downward (inclination about 63°).
    public var magneticField: SIMD3<Double>
    /// Magnetic declination, radians, positive east: the horizontal field is turned this much
    /// from north toward east.
    public var declination: Double

    public init(
        gravity: Double = 9.80665, magneticField: SIMD3<Double> = SIMD3(0, 20, -40), declination: Double = 0
    ) {
        self.gravity = gravity
        self.magneticField = magneticField
        self.declination = declination
    }

    /// Standard gravity, `(0, 20, −40)` µT, no declination.
    public static let `default` = MotionEnvironment()

    /// The field in ENU with the declination applied (a rotation by −declination about up).
    public var magneticFieldENU: SIMD3<Double> {
        let c = Elementary.cos(declination), s = Elementary.sin(declination)
        let f = magneticField
        return SIMD3(f.x * c + f.y * s, -f.x * s + f.y * c, f.z)
    }
}

/// A bad argument to ``MotionGenerator`` or ``SimulatedIMU``.
public struct MotionSettingsError: Error, CustomStringConvertible, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
