import PoiseMath
import PoiseTelemetry

/// The matrices the page draws with, in Swift, for tests (the page computes the same in
/// JavaScript). 4×4, column-major as OpenGL stores them: element (row r, column c) is at
/// index `4c + r`.
public enum ModelViewMatrix {
    /// Model-view of the world-fixed die seen through the moving board (the background
    /// document's Eq. VII): the inverse of (body-to-world rotation, then a translation `d`
    /// along the camera's z), i.e. the rotation transposed and the translation negated:
    /// `[Rᵀ | −d]` with d = (0, 0, distance).
    public static func die(attitude q: Quaternion, distance: Float = 4) -> [Float] {
        let r = RotationMatrix(q)
        // Column j of Rᵀ is row j of R.
        return [r.row0.x, r.row0.y, r.row0.z, 0,
                r.row1.x, r.row1.y, r.row1.z, 0,
                r.row2.x, r.row2.y, r.row2.z, 0,
                0, 0, -distance, 1]
    }

    /// The FRD-to-NED attitude of a snapshot as a Poise body-to-`world` attitude, the way the
    /// page converts it before drawing.
    public static func bodyAttitude(frdToNED q: [Float], world: WorldAxes) -> Quaternion {
        let ned = Quaternion(w: q[0], x: q[1], y: q[2], z: q[3])
        return WorldAxes.ned.convert(attitude: ned * MAVLinkFrames.bodyFromFRD.conjugate, to: world)
    }

    /// Core Motion's relative attitude: the attitude multiplied by the inverse of the saved
    /// reference, `q_ref⁻¹ ⊗ q` (identity when at the reference).
    public static func relative(_ q: Quaternion, to reference: Quaternion) -> Quaternion {
        reference.conjugate * q
    }

    /// Column-major 4×4 product a·b.
    public static func multiply(_ a: [Float], _ b: [Float]) -> [Float] {
        var m = [Float](repeating: 0, count: 16)
        for c in 0 ..< 4 { for r in 0 ..< 4 {
            var s: Float = 0
            for k in 0 ..< 4 { s += a[4 * k + r] * b[4 * c + k] }
            m[4 * c + r] = s
        } }
        return m
    }
}

