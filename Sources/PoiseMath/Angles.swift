// Angle helpers shared by the Euler, heading and frame code.

/// Radians per degree.
@inlinable public var radiansPerDegree: Float { Float.pi / 180 }

/// Converts degrees to radians.
@inlinable @inline(__always)
public func radians(fromDegrees degrees: Float) -> Float { degrees * (Float.pi / 180) }

/// Converts radians to degrees.
@inlinable @inline(__always)
public func degrees(fromRadians radians: Float) -> Float { radians * (180 / Float.pi) }

/// `angle` wrapped into (−π, π], with −π mapped to +π. Non-finite input is returned unchanged.
///
/// π is not a Float: `Float.pi` lies just below it and `Float.pi.nextUp` just above. Both count
/// as π and are left alone; `-Float.pi` and `-Float.pi.nextUp` (−π) become `Float.pi`.
/// So the result r satisfies `-Float.pi < r <= Float.pi.nextUp`. Inputs in range are returned
/// exactly; inputs within about one turn outside are corrected by ±2π; anything further out
/// goes through `atan2(sin, cos)`.
@inlinable
public func wrappedAngle(_ angle: Float) -> Float {
    guard angle.isFinite else { return angle }
    var a = angle
    let limit = Float.pi.nextUp
    if a > 3 * Float.pi || a < -3 * Float.pi {
        // libm's argument reduction handles any magnitude.
        a = _atan2(_sin(a), _cos(a))
    }
    if a > limit { a -= 2 * Float.pi } else if a < -limit { a += 2 * Float.pi }
    if a <= -Float.pi { a = Float.pi }
    return a
}
