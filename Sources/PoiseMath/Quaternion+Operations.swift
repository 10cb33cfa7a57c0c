// Quaternion algebra beyond the core: inverse, distance, logarithm, relative attitude.

/// Dot product of two quaternions as 4-vectors: `cos(θ/2)` of the rotation between two unit
/// quaternions, up to sign (q and −q are the same rotation).
@inlinable @inline(__always)
public func dot(_ a: Quaternion, _ b: Quaternion) -> Float {
    (a.components * b.components).sum()
}

extension Quaternion {
    /// The multiplicative inverse `conjugate / |q|²`; `q ⊗ q.inverse == .identity`.
    /// For a unit quaternion this equals `conjugate`. Not finite for the zero quaternion.
    @inlinable @inline(__always)
    public var inverse: Quaternion {
        Quaternion(components: conjugate.components * (1 / lengthSquared))
    }

    /// True when all four components are finite (neither NaN nor infinite).
    @inlinable
    public var isFinite: Bool {
        w.isFinite && x.isFinite && y.isFinite && z.isFinite
    }

    /// The same rotation with a canonical sign: `w > 0`, or when `w == 0` the first non-zero
    /// of `x, y, z` positive. `q` and `−q` give the same result.
    @inlinable
    public var canonicalized: Quaternion {
        let c = components
        let leading: Float = c.x != 0 ? c.x : (c.y != 0 ? c.y : (c.z != 0 ? c.z : c.w))
        return leading < 0 ? Quaternion(components: -c) : self
    }

    /// This quaternion times −1 when `dot(self, reference) < 0`: the representative of the same
    /// rotation on `reference`'s side of the 4-sphere (for continuity and interpolation).
    @inlinable @inline(__always)
    public func aligned(with reference: Quaternion) -> Quaternion {
        dot(self, reference) < 0 ? Quaternion(components: -components) : self
    }

    /// The angle in radians, 0…π, of the rotation that takes attitude `self` to attitude `other`
    /// (the geodesic distance between the attitudes). `q` and `−q` count as equal.
    ///
    /// Computed as `4·atan2(|a − b|, |a + b|)` after aligning signs, which stays accurate for
    /// tiny angles where `2·acos(|a·b|)` loses half its digits. Inputs should be unit length.
    @inlinable
    public func angle(to other: Quaternion) -> Float {
        let a = components
        let b = other.aligned(with: self).components
        let d = a - b, s = a + b
        return 4 * _atan2(squareRoot((d * d).sum()), squareRoot((s * s).sum()))
    }

    /// The attitude relative to a saved reference attitude, as Core Motion's
    /// `CMAttitude.multiply(byInverseOf:)`: `reference⁻¹ ⊗ self`.
    ///
    /// With `self` and `reference` both body-to-world, the result is body-to-reference-body:
    /// the change since the reference, expressed in the reference's body frame. Hence
    /// `q.multiply(byInverseOf: q) == .identity` and
    /// `reference * q.multiply(byInverseOf: reference) == q`. Non-mutating, unlike Core Motion.
    @inlinable @inline(__always)
    public func multiply(byInverseOf reference: Quaternion) -> Quaternion {
        reference.inverse * self
    }
}

extension Quaternion {
    /// The rotation vector (axis × angle, radians) of this unit quaternion, with the angle in
    /// 0…π (the short way round; `q` and `−q` give the same vector). Inverse of
    /// `init(rotationVector:)`. Accurate near the identity (no `acos`).
    @inlinable
    public var rotationVector: SIMD3<Float> {
        let q = w < 0 ? Quaternion(components: -components) : self
        let v = q.imaginary
        let s2 = dot(v, v)
        if s2 < 1e-12 {
            // angle/sin(angle/2) → 2/w as the angle → 0; the next term is O(s²).
            return v * (2 / q.w)
        }
        let s = squareRoot(s2)
        return v * (2 * _atan2(s, q.w) / s)
    }

    /// Logarithm of this unit quaternion: the pure quaternion `(0, axis·angle/2)`, returned as
    /// its vector part (half the rotation vector). `Quaternion.exp(q.log)` gives `q` up to sign.
    @inlinable
    public var log: SIMD3<Float> { rotationVector / 2 }

    /// Exponential of the pure quaternion `(0, v)`: the unit quaternion
    /// `(cos|v|, sin|v|·v/|v|)`, i.e. the rotation by `2|v|` about `v`.
    @inlinable
    public static func exp(_ v: SIMD3<Float>) -> Quaternion {
        Quaternion(rotationVector: 2 * v)
    }

    /// The rotation angle in radians, 0…π (the short way round).
    @inlinable
    public var angle: Float {
        let q = w < 0 ? Quaternion(components: -components) : self
        return 2 * _atan2(squareRoot(dot(q.imaginary, q.imaginary)), q.w)
    }

    /// The unit rotation axis, chosen so the angle is 0…π; `(1, 0, 0)` for the identity.
    @inlinable
    public var axis: SIMD3<Float> {
        let v = w < 0 ? -imaginary : imaginary
        let s2 = dot(v, v)
        guard s2 > 0, s2.isFinite else { return SIMD3(1, 0, 0) }
        return v * reciprocalSquareRoot(s2)
    }
}

extension Quaternion {
    /// The shortest-arc rotation taking the direction of `from` to the direction of `to`
    /// (`rotate(from)` is parallel to `to`). Lengths do not matter.
    ///
    /// Built as `normalize(|u||v| + u·v, u × v)`, evaluated in Double: Float products are
    /// exact there, so the cancellation in `|u||v| + u·v` and in the cross product stays
    /// harmless until the vectors are within about 1e-6 rad of antiparallel. Exactly (or that
    /// nearly) antiparallel vectors get a half turn about an axis perpendicular to `from` (any
    /// such axis is a shortest arc; this one is `from` crossed with the coordinate axis it is
    /// most perpendicular to). A zero or non-finite input gives the identity.
    @inlinable
    public init(from: SIMD3<Float>, to: SIMD3<Float>) {
        // Scale each vector by its largest component so squares cannot overflow.
        let su = max(max(abs(from.x), abs(from.y)), abs(from.z))
        let sv = max(max(abs(to.x), abs(to.y)), abs(to.z))
        guard su > 0, sv > 0, su.isFinite, sv.isFinite else { self = .identity; return }
        let ux = Double(from.x) / Double(su), uy = Double(from.y) / Double(su), uz = Double(from.z) / Double(su)
        let vx = Double(to.x) / Double(sv), vy = Double(to.y) / Double(sv), vz = Double(to.z) / Double(sv)
        let nn = (ux * ux + uy * uy + uz * uz) * (vx * vx + vy * vy + vz * vz)  // in [1, 9]
        var n = Double(squareRoot(Float(nn)))
        n = 0.5 * (n + nn / n)  // one Newton step: |u||v| to Double precision
        let real = n + (ux * vx + uy * vy + uz * vz)
        if real <= 1e-12 * n {
            let a = SIMD3(abs(from.x), abs(from.y), abs(from.z))
            let basis: SIMD3<Float> = a.x <= a.y && a.x <= a.z
                ? SIMD3(1, 0, 0) : (a.y <= a.z ? SIMD3(0, 1, 0) : SIMD3(0, 0, 1))
            let axis = cross(from / su, basis)
            self = Quaternion(real: 0, imaginary: axis * reciprocalSquareRoot(dot(axis, axis)))
            return
        }
        let inverse = 1 / n
        self = Quaternion(w: Float(real * inverse),
                          x: Float((uy * vz - uz * vy) * inverse),
                          y: Float((uz * vx - ux * vz) * inverse),
                          z: Float((ux * vy - uy * vx) * inverse)).normalized
    }
}
