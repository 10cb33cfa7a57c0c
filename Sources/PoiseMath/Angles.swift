// Angle helpers shared by the Euler, heading and frame code.

/// Radians per degree.
@inlinable public var radiansPerDegree: Float { Float.pi / 180 }

/// Converts degrees to radians.
@inlinable @inline(__always)
public func radians(fromDegrees degrees: Float) -> Float { degrees * (Float.pi / 180) }

/// Converts radians to degrees.
@inlinable @inline(__always)
public func degrees(fromRadians radians: Float) -> Float { radians * (180 / Float.pi) }

/// `angle` wrapped into (−π, π]; −π itself maps to +π. Non-finite input is returned unchanged.
///
/// Exact for inputs already in range; inputs within one turn of the range are corrected by
/// adding or subtracting 2π; anything further out goes through `atan2(sin, cos)`.
@inlinable
public func wrappedAngle(_ angle: Float) -> Float {
    guard angle.isFinite else { return angle }
    var a = angle
    let turn = 2 * Float.pi
    if a > 3 * Float.pi || a < -3 * Float.pi {
        // libm's argument reduction handles any magnitude; the checks below fix the ends.
        a = _atan2(_sin(a), _cos(a))
    }
    if a <= -Float.pi { a += turn }
    if a > Float.pi { a -= turn }
    return a
}
