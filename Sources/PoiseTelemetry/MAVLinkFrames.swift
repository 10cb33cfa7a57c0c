import PoiseMath

// Poise's frames → MAVLink's.
//
// Poise's body axes are Core Motion's: x right, y forward ("top" of the board), z up out of
// the board. MAVLink's body frame is FRD (forward, right, down) and its world frame NED.
// So forward = +y, right = +x, down = −z: a half turn about (x + y)/√2, a proper rotation.
// The world frame comes from `frame.output`: ENU, NWU, NED, and Core Motion's z-vertical
// frames, whose x is north (or arbitrary) and z up, i.e. NWU.
//
// With that, at small angles: MAVLink pitch (nose up +) = Core Motion pitch (about x, top
// up +), MAVLink roll (right side down +) = Core Motion roll (about y, right side down +),
// MAVLink yaw (clockwise from north, seen from above) = −Core Motion yaw (counter-clockwise).
// Angles are computed from the converted quaternion (aircraft Z-Y-X order), not by renaming
// Core Motion's, so large angles are right too.

public enum MAVLinkFrames {
    /// The rotation taking FRD coordinates to Poise body coordinates.
    public static let bodyFromFRD = Quaternion(w: 0, x: 0.7071067811865476, y: 0.7071067811865476, z: 0)

    /// The world layout of a `frame.output` name (Core Motion's z-vertical frames are NWU).
    public static func worldAxes(ofOutputFrame name: String) -> WorldAxes {
        switch name {
        case "enu": .enu
        case "ned": .ned
        default: .nwu
        }
    }

    /// FRD-body-to-NED attitude from a Poise body-to-`world` attitude.
    @inlinable
    public static func nedFromFRD(_ q: Quaternion, world: WorldAxes) -> Quaternion {
        world.convert(attitude: q, to: .ned) * bodyFromFRD
    }

    /// A body-frame vector (rates, accelerations, field) in FRD axes.
    @inlinable
    public static func frd(_ v: SIMD3<Float>) -> SIMD3<Float> { SIMD3(v.y, v.x, -v.z) }

    /// Aircraft roll, pitch, yaw (Z-Y-X, radians) of an FRD-to-NED rotation, as MAVLink's
    /// ATTITUDE reports them: roll and yaw in (−π, π], pitch in [−π/2, π/2].
    @inlinable
    public static func aircraftEuler(_ q: Quaternion) -> (roll: Float, pitch: Float, yaw: Float) {
        let w = q.w, x = q.x, y = q.y, z = q.z
        let roll = _atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y))
        let s = min(max(2 * (w * y - z * x), -1), 1)
        let pitch = _atan2(s, squareRoot(max(0, 1 - s * s)))
        let yaw = _atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))
        return (roll, pitch, yaw)
    }
}
