/// A rotation as a unit quaternion: Hamilton convention, scalar (w) first, body-to-world.
///
/// `q.rotate(v)` takes a vector expressed in the body frame to the world frame.
/// Storage is one `SIMD4<Float>` laid out `(w, x, y, z)` so a quaternion fits one register.
@frozen
public struct Quaternion: Hashable, Sendable {
    /// Components `(w, x, y, z)`.
    public var components: SIMD4<Float>

    @inlinable @inline(__always)
    public init(components: SIMD4<Float>) { self.components = components }

    @inlinable @inline(__always)
    public init(w: Float, x: Float, y: Float, z: Float) {
        components = SIMD4(w, x, y, z)
    }

    /// A quaternion from its scalar part and vector part.
    @inlinable @inline(__always)
    public init(real w: Float, imaginary v: SIMD3<Float>) {
        components = SIMD4(w, v.x, v.y, v.z)
    }

    @inlinable public var w: Float { get { components.x } set { components.x = newValue } }
    @inlinable public var x: Float { get { components.y } set { components.y = newValue } }
    @inlinable public var y: Float { get { components.z } set { components.z = newValue } }
    @inlinable public var z: Float { get { components.w } set { components.w = newValue } }

    /// The vector (imaginary) part `(x, y, z)`.
    @inlinable public var imaginary: SIMD3<Float> { SIMD3(components.y, components.z, components.w) }

    /// The identity rotation.
    @inlinable public static var identity: Quaternion { Quaternion(w: 1, x: 0, y: 0, z: 0) }
}

extension Quaternion {
    /// Hamilton product `lhs ⊗ rhs`: apply `rhs` first, then `lhs`.
    @inlinable @inline(__always)
    public static func * (lhs: Quaternion, rhs: Quaternion) -> Quaternion {
        let a = lhs.components, b = rhs.components
        return Quaternion(
            w: a.x * b.x - a.y * b.y - a.z * b.z - a.w * b.w,
            x: a.x * b.y + a.y * b.x + a.z * b.w - a.w * b.z,
            y: a.x * b.z - a.y * b.w + a.z * b.x + a.w * b.y,
            z: a.x * b.w + a.y * b.z - a.z * b.y + a.w * b.x)
    }

    /// The conjugate; for a unit quaternion this is the inverse rotation.
    @inlinable @inline(__always)
    public var conjugate: Quaternion {
        Quaternion(components: components * SIMD4(1, -1, -1, -1))
    }

    /// Squared norm.
    @inlinable @inline(__always)
    public var lengthSquared: Float { (components * components).sum() }

    /// Rotates a body-frame vector into the world frame: `q ⊗ (0, v) ⊗ q*`.
    @inlinable @inline(__always)
    public func rotate(_ v: SIMD3<Float>) -> SIMD3<Float> {
        // t = 2 (u × v); v' = v + w t + u × t  (fewer operations than two products)
        let u = imaginary
        let t = 2 * cross(u, v)
        return v + w * t + cross(u, t)
    }

    /// Rotates a world-frame vector into the body frame (the inverse rotation).
    @inlinable @inline(__always)
    public func inverseRotate(_ v: SIMD3<Float>) -> SIMD3<Float> {
        conjugate.rotate(v)
    }
}

/// Cross product of two 3-vectors.
@inlinable @inline(__always)
public func cross(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> SIMD3<Float> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}

/// Dot product of two 3-vectors.
@inlinable @inline(__always)
public func dot(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float { (a * b).sum() }

extension Quaternion {
    /// Norm (length) of the four components.
    @inlinable @inline(__always)
    public var length: Float { squareRoot(lengthSquared) }

    /// This quaternion scaled to unit norm; the identity when the norm is zero or not finite.
    @inlinable @inline(__always)
    public var normalized: Quaternion {
        let n2 = lengthSquared
        guard n2 > 0, n2.isFinite else { return .identity }
        return Quaternion(components: components * (1 / squareRoot(n2)))
    }
}

extension Quaternion {
    /// The rotation by `angle` radians about the unit vector `axis` (right-hand rule).
    @inlinable
    public init(axis: SIMD3<Float>, angle: Float) {
        let half = angle / 2
        self.init(real: _cos(half), imaginary: axis * _sin(half))
    }

    /// The rotation whose axis is `v`'s direction and whose angle is `|v|` radians
    /// (the quaternion exponential of `v / 2`). Exact near zero.
    @inlinable
    public init(rotationVector v: SIMD3<Float>) {
        let angle2 = dot(v, v)
        if angle2 < 1e-12 {
            // Second-order series keeps small steps (one gyro tick) accurate and branch-cheap.
            self = Quaternion(real: 1 - angle2 / 8, imaginary: v / 2)
        } else {
            let angle = squareRoot(angle2)
            self.init(axis: v / angle, angle: angle)
        }
    }
}
