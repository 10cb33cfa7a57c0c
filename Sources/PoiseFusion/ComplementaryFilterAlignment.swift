import PoiseMath

/// Attitudes computed from a single accelerometer (and magnetometer) reading.
///
/// Every classic filter here starts from such an attitude instead of the identity, so it is
/// right from the first sample instead of converging for seconds; the complementary filter
/// also blends towards it on every sample.
@usableFromInline
enum StartupAlignment {
    /// The tilt-only attitude: the smallest rotation taking the measured "up" (the
    /// accelerometer's direction, body frame) onto world +z. Heading is whatever that
    /// shortest arc gives (zero yaw for small tilts). `nil` for a zero or non-finite reading.
    @inlinable
    static func tilt(accelerometer a: SIMD3<Float>) -> Quaternion? {
        let n2 = dot(a, a)
        guard n2.isFinite, n2 > 1e-12 else { return nil }
        return shortestArc(from: a * reciprocalSquareRoot(n2), to: SIMD3(0, 0, 1))
    }

    /// The rotation taking unit vector `u` onto unit vector `v` by the smallest angle.
    /// When they are opposite, a half turn about an axis perpendicular to `u`.
    @inlinable
    static func shortestArc(from u: SIMD3<Float>, to v: SIMD3<Float>) -> Quaternion {
        let c = dot(u, v)
        if c < -0.999999 {
            // Opposite: any axis perpendicular to u works; pick the one furthest from u's
            // largest component so the cross product is well conditioned.
            let helper: SIMD3<Float> = abs(u.x) < 0.9 ? SIMD3(1, 0, 0) : SIMD3(0, 1, 0)
            let axis = cross(u, helper)
            return Quaternion(real: 0, imaginary: axis * reciprocalSquareRoot(dot(axis, axis)))
        }
        return Quaternion(real: 1 + c, imaginary: cross(u, v)).normalized
    }

    /// The starting attitude from a screened sample, or nil when it has no accelerometer
    /// reading yet. Flags `.initialising`, and `.magnetometerUsed` when the heading came from
    /// the magnetometer.
    static func firstAttitude(_ input: ScreenedSample, flags: inout FilterFlags) -> Quaternion? {
        flags.insert(.initialising)
        guard let a = input.accelerometer,
              let start = attitude(accelerometer: a, magnetometer: input.magnetometer) else { return nil }
        if input.magnetometer != nil { flags.insert(.magnetometerUsed) }
        return start
    }

    /// The full attitude (body-to-ENU) from gravity and the magnetic field: world +z along
    /// the accelerometer, world +y along the horizontal part of the field (magnetic north).
    /// Falls back to `tilt` when the field is (nearly) vertical or unusable.
    @inlinable
    static func attitude(accelerometer a: SIMD3<Float>, magnetometer m: SIMD3<Float>?) -> Quaternion? {
        if let m, let q = northReferenced(accelerometer: a, magnetometer: m) { return q }
        return tilt(accelerometer: a)
    }

    /// Like `attitude`, but `nil` instead of a tilt-only fallback when the heading is
    /// undefined (field within ~2.5° of vertical, zero or non-finite readings).
    @inlinable
    static func northReferenced(accelerometer a: SIMD3<Float>, magnetometer m: SIMD3<Float>) -> Quaternion? {
        let a2 = dot(a, a)
        guard a2.isFinite, a2 > 1e-12 else { return nil }
        let up = a * reciprocalSquareRoot(a2)
        let eastRaw = cross(m, up)
        let e2 = dot(eastRaw, eastRaw)
        let m2 = dot(m, m)
        guard e2.isFinite, m2.isFinite, m2 > 1e-12, e2 > 0.002 * m2 else { return nil }
        let east = eastRaw * reciprocalSquareRoot(e2)
        let north = cross(up, east)
        return fromRows(east, north, up)
    }

    /// The quaternion of the rotation matrix whose rows are `r0 r1 r2` (Shepperd's method:
    /// divide by the largest of the four candidate diagonals, so it never loses precision).
    @inlinable
    static func fromRows(_ r0: SIMD3<Float>, _ r1: SIMD3<Float>, _ r2: SIMD3<Float>) -> Quaternion {
        let trace = r0.x + r1.y + r2.z
        var q: Quaternion
        if trace > 0 {
            let s = 2 * squareRoot(trace + 1)
            q = Quaternion(w: s / 4, x: (r2.y - r1.z) / s, y: (r0.z - r2.x) / s, z: (r1.x - r0.y) / s)
        } else if r0.x > r1.y && r0.x > r2.z {
            let s = 2 * squareRoot(max(1 + r0.x - r1.y - r2.z, 1e-12))
            q = Quaternion(w: (r2.y - r1.z) / s, x: s / 4, y: (r0.y + r1.x) / s, z: (r0.z + r2.x) / s)
        } else if r1.y > r2.z {
            let s = 2 * squareRoot(max(1 + r1.y - r0.x - r2.z, 1e-12))
            q = Quaternion(w: (r0.z - r2.x) / s, x: (r0.y + r1.x) / s, y: s / 4, z: (r1.z + r2.y) / s)
        } else {
            let s = 2 * squareRoot(max(1 + r2.z - r0.x - r1.y, 1e-12))
            q = Quaternion(w: (r1.x - r0.y) / s, x: (r0.z + r2.x) / s, y: (r1.z + r2.y) / s, z: s / 4)
        }
        if q.w < 0 { q.components = -q.components }
        return q.normalized
    }

    /// Rotation vector (axis × angle, radians) of a unit quaternion, taking the short way.
    @inlinable
    static func rotationVector(_ q: Quaternion) -> SIMD3<Float> {
        var c = q.components
        if c.x < 0 { c = -c }
        let v = SIMD3(c.y, c.z, c.w)
        let s2 = dot(v, v)
        guard s2 > 1e-14 else { return 2 * v }
        let s = squareRoot(s2)
        return v * (2 * _atan2(s, c.x) / s)
    }

    /// `q` when finite and non-degenerate (normalised), otherwise `fallback`.
    @inlinable
    static func sanitised(_ q: Quaternion, fallback: Quaternion) -> Quaternion {
        let n2 = q.lengthSquared
        guard n2.isFinite, n2 > 1e-6 else { return fallback }
        return Quaternion(components: q.components * reciprocalSquareRoot(n2))
    }
}
