// Euler angles in Core Motion's convention.

/// Attitude as Euler angles in Core Motion's convention, radians.
///
/// - `pitch`: rotation about the x axis, in [−π/2, π/2].
/// - `roll`: rotation about the y axis, in (−π, π].
/// - `yaw`: rotation about the z axis (world vertical), in (−π, π].
///
/// (Ranges as produced by `wrappedAngle`: −π becomes +π; in Float "+π" may be `Float.pi`
/// or `Float.pi.nextUp`, the two floats either side of π.)
///
/// The body-to-world rotation is **R = Rz(yaw) · Rx(pitch) · Ry(roll)**: starting from the
/// body aligned with the world, roll about body y, then pitch about body x, then yaw about
/// the world vertical. As a quaternion `q = qz(yaw) ⊗ qx(pitch) ⊗ qy(roll)`. Yaw is the
/// counter-clockwise angle (seen from above) from world +y to the horizontal projection of
/// body +y, which is why neither pitch nor roll changes it.
///
/// **Gimbal lock.** At pitch = ±π/2 body y is vertical and roll and yaw turn about the same
/// axis, so only yaw + roll (pitch +π/2) or yaw − roll (pitch −π/2) is defined. When pitch is
/// within `gimbalLockTolerance` of ±π/2 the conversion from a rotation sets **roll = 0** and
/// puts the whole rotation about the vertical into yaw. Yaw is then the azimuth of the body
/// −z axis at pitch +π/2 (top up: where a phone's back camera looks) and of +z at −π/2 (top
/// down), measured like the top's azimuth — the value yaw tends to as the device is tipped
/// to vertical with roll 0. The angles still reproduce the rotation (to within the tolerance
/// times the dropped roll, a few 1e-4 rad at worst).
@frozen
public struct EulerAngles: Hashable, Sendable {
    /// Rotation about x, radians, [−π/2, π/2].
    public var pitch: Float
    /// Rotation about y, radians, (−π, π].
    public var roll: Float
    /// Rotation about z (the world vertical), radians, (−π, π].
    public var yaw: Float

    /// Angles in radians. They are not wrapped; `Quaternion(eulerAngles)` accepts any values.
    @inlinable @inline(__always)
    public init(pitch: Float, roll: Float, yaw: Float) {
        self.pitch = pitch
        self.roll = roll
        self.yaw = yaw
    }

    /// Radians of pitch from ±π/2 within which the conversion treats the attitude as gimbal
    /// locked (roll = 0). Float rounding makes roll and yaw individually meaningless closer
    /// than this anyway.
    @inlinable public static var gimbalLockTolerance: Float { 1e-4 }

    /// The Euler angles of the rotation `q` (any sign, normalised internally).
    ///
    /// Uses sums and differences of components: with half angles,
    /// `(w + x, y + z) ∝ (cos, sin)((yaw + roll)/2)` and `(w − x, z − y) ∝ (cos, sin)((yaw − roll)/2)`,
    /// scaled by `√(1 ± sin pitch)`. This keeps yaw ± roll and pitch accurate right up to ±π/2
    /// and the reconstructed rotation accurate everywhere.
    @inlinable
    public init(_ q: Quaternion) {
        let w = q.w, x = q.x, y = q.y, z = q.z
        let p = w + x, pz = y + z, m = w - x, mz = z - y
        let a2 = p * p + pz * pz    // |q|² (1 + sin pitch)
        let b2 = m * m + mz * mz    // |q|² (1 − sin pitch)
        // sin pitch ∝ (a² − b²)/2 = 2(wx + yz); cos pitch ∝ a·b ≥ 0, so pitch ∈ [−π/2, π/2].
        // Clamped because atan2 can return π/2 rounded up, one ulp above `Float.pi / 2`.
        let pitch = min(max(_atan2((a2 - b2) / 2, squareRoot(a2 * b2)), -Float.pi / 2), Float.pi / 2)
        let sum = 2 * _atan2(pz, p)           // yaw + roll (mod 2π)
        let difference = 2 * _atan2(mz, m)    // yaw − roll (mod 2π)
        let distanceToLock = Float.pi / 2 - abs(pitch)
        if distanceToLock <= EulerAngles.gimbalLockTolerance {
            self.init(pitch: pitch, roll: 0, yaw: wrappedAngle(pitch > 0 ? sum : difference))
        } else {
            self.init(pitch: pitch,
                      roll: wrappedAngle((sum - difference) / 2),
                      yaw: wrappedAngle((sum + difference) / 2))
        }
    }

    /// The same angles in degrees (pitch, roll, yaw), for display.
    @inlinable
    public var degrees: SIMD3<Float> {
        SIMD3(pitch, roll, yaw) * (180 / Float.pi)
    }
}

extension Quaternion {
    /// The rotation `qz(yaw) ⊗ qx(pitch) ⊗ qy(roll)`; see `EulerAngles`.
    @inlinable
    public init(_ e: EulerAngles) {
        let cp = _cos(e.pitch / 2), sp = _sin(e.pitch / 2)
        let cr = _cos(e.roll / 2), sr = _sin(e.roll / 2)
        let cy = _cos(e.yaw / 2), sy = _sin(e.yaw / 2)
        self.init(w: cy * cp * cr - sy * sp * sr,
                  x: cy * sp * cr - sy * cp * sr,
                  y: cy * cp * sr + sy * sp * cr,
                  z: sy * cp * cr + cy * sp * sr)
    }

    /// This attitude's Euler angles in Core Motion's convention; see `EulerAngles`.
    @inlinable
    public var eulerAngles: EulerAngles { EulerAngles(self) }
}

extension EulerAngles {
    /// The Euler angles of a rotation matrix (through its quaternion).
    @inlinable
    public init(_ m: RotationMatrix) { self.init(m.quaternion) }
}

extension RotationMatrix {
    /// The matrix `Rz(yaw)·Rx(pitch)·Ry(roll)`.
    @inlinable
    public init(_ e: EulerAngles) { self.init(Quaternion(e)) }
}
