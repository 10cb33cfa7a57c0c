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
/// Exact for inputs already in range; inputs within a few turns of the range are corrected by
/// whole turns (2π), so the result differs from the input by a multiple of 2π up to rounding.
@inlinable
public func wrappedAngle(_ angle: Float) -> Float {
    guard angle.isFinite else { return angle }
    var a = angle
    let turn = 2 * Float.pi
    if a > Float.pi || a <= -Float.pi {
        // One remainder brings any magnitude into [−π, π]; the checks below fix the ends.
        a = a.remainder(dividingBy: turn)
    }
    if a <= -Float.pi { a += turn }
    if a > Float.pi { a -= turn }
    return a
}
