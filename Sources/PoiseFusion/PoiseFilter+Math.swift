import PoiseMath

// Small, branch-light helpers for `PoiseFilter`'s hot path. None calls into libm.
extension PoiseFilter {
    /// `q` brought back to unit norm by one Newton step, exact to second order when `q` is
    /// already within a few ulps of unit norm (true after multiplying unit quaternions).
    @inlinable @inline(__always)
    static func renormalized(_ q: Quaternion) -> Quaternion {
        Quaternion(components: q.components * (1.5 - 0.5 * q.lengthSquared))
    }

    /// Rows x, y and z of the rotation matrix of the unit quaternion `q` (body → world):
    /// `row.x · v` is the world x component of the body vector `v`.
    @inlinable @inline(__always)
    static func rotationRows(_ q: Quaternion)
        -> (x: SIMD3<Float>, y: SIMD3<Float>, z: SIMD3<Float>) {
        let w = q.w, x = q.x, y = q.y, z = q.z
        let xx = x * x, yy = y * y, zz = z * z
        let xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z
        return (SIMD3(1 - 2 * (yy + zz), 2 * (xy - wz), 2 * (xz + wy)),
                SIMD3(2 * (xy + wz), 1 - 2 * (xx + zz), 2 * (yz - wx)),
                SIMD3(2 * (xz - wy), 2 * (yz + wx), 1 - 2 * (xx + yy)))
    }

    /// `1/√x` for a positive, finite `x`, to about 5e-6 relative: an exponent-halving first
    /// guess refined by two Newton steps. Inline arithmetic, cheaper in the hot path than a
    /// call (which spills every vector register).
    @inlinable @inline(__always)
    static func fastReciprocalSquareRoot(_ x: Float) -> Float {
        var y = Float(bitPattern: 0x5f37_5a86 &- (x.bitPattern >> 1))
        let half = 0.5 * x
        y *= 1.5 - half * y * y
        y *= 1.5 - half * y * y
        return y
    }

    /// `atan2(y, x)` in radians, within 2e-5 rad (polynomial on [0, 1] plus octant folding).
    @inlinable @inline(__always)
    static func arcTangent(_ y: Float, _ x: Float) -> Float {
        let ax = abs(x), ay = abs(y)
        let big = max(ax, ay), small = min(ax, ay)
        guard big > 0 else { return 0 }
        let t = small / big
        let t2 = t * t
        var angle = t * (0.99997726 + t2 * (-0.33262347 + t2 * (0.19354346
            + t2 * (-0.11643287 + t2 * (0.05265332 + t2 * -0.01172120)))))
        if ay > ax { angle = .pi / 2 - angle }
        if x < 0 { angle = .pi - angle }
        return y < 0 ? -angle : angle
    }
}
