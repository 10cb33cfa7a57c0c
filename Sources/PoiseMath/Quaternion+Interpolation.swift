// Interpolation between attitudes.

extension Quaternion {
    /// Normalised linear interpolation along the short path: `normalize((1−t)·a + t·b')` with
    /// `b' = ±other` on `self`'s side. Cheap; speed along the arc is not constant.
    @inlinable
    public func nlerp(to other: Quaternion, t: Float) -> Quaternion {
        let b = other.aligned(with: self).components
        return Quaternion(components: components + t * (b - components)).normalized
    }

    /// Spherical linear interpolation along the short path, constant angular speed:
    /// `t = 0` gives `self`, `t = 1` gives `other` up to sign (the sign on `self`'s side).
    ///
    /// When the attitudes are within about 3.6° of each other (|a·b| > 0.9995) the arc is
    /// nearly straight and `nlerp` is used, which avoids dividing by a vanishing `sin θ`.
    /// Inputs should be unit length; the result is normalised.
    @inlinable
    public func slerp(to other: Quaternion, t: Float) -> Quaternion {
        let b = other.aligned(with: self)
        let cosine = dot(self, b)
        if cosine > 0.9995 { return nlerp(to: b, t: t) }
        let theta = _acos(min(cosine, 1))
        let s = 1 / _sin(theta)
        let ca = _sin((1 - t) * theta) * s
        let cb = _sin(t * theta) * s
        return Quaternion(components: ca * components + cb * b.components).normalized
    }
}
