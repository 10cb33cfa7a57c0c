import PoiseMath

/// A unit quaternion in `Double` used to compute ground truth without Float round-off piling
/// up over long scripts. Hamilton, w first, body-to-world like `Quaternion`.
struct RotationD: Sendable, Equatable {
    var w, x, y, z: Double

    static let identity = RotationD(w: 1, x: 0, y: 0, z: 0)

    init(w: Double, x: Double, y: Double, z: Double) {
        self.w = w
        self.x = x
        self.y = y
        self.z = z
    }

    /// Exact `exp(axis · angle / 2)` for a unit `axis`.
    init(axis: Vector3D, angle: Double) {
        let s = Elementary.sin(angle / 2)
        self.init(w: Elementary.cos(angle / 2), x: axis.x * s, y: axis.y * s, z: axis.z * s)
    }

    init(_ q: Quaternion) {
        self.init(w: Double(q.w), x: Double(q.x), y: Double(q.y), z: Double(q.z))
        self = normalized
    }

    var normalized: RotationD {
        let n2 = w * w + x * x + y * y + z * z
        guard n2 > 0, n2.isFinite else { return .identity }
        let inv = 1 / n2.squareRoot()
        return RotationD(w: w * inv, x: x * inv, y: y * inv, z: z * inv)
    }

    static func * (a: RotationD, b: RotationD) -> RotationD {
        RotationD(
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    /// Body → world.
    func rotate(_ v: Vector3D) -> Vector3D {
        let u = Vector3D(x, y, z)
        let t = 2 * u.cross(v)
        return v + w * t + u.cross(t)
    }

    /// World → body.
    func inverseRotate(_ v: Vector3D) -> Vector3D {
        RotationD(w: w, x: -x, y: -y, z: -z).rotate(v)
    }

    var float: Quaternion {
        let n = normalized
        return Quaternion(w: Float(n.w), x: Float(n.x), y: Float(n.y), z: Float(n.z))
    }
}

/// A 3-vector in `Double` (truth computations).
struct Vector3D: Sendable, Equatable {
    var x, y, z: Double

    init(_ x: Double, _ y: Double, _ z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    init(_ v: SIMD3<Float>) { self.init(Double(v.x), Double(v.y), Double(v.z)) }

    static let zero = Vector3D(0, 0, 0)

    static func + (a: Vector3D, b: Vector3D) -> Vector3D { Vector3D(a.x + b.x, a.y + b.y, a.z + b.z) }
    static func - (a: Vector3D, b: Vector3D) -> Vector3D { Vector3D(a.x - b.x, a.y - b.y, a.z - b.z) }
    static func * (s: Double, v: Vector3D) -> Vector3D { Vector3D(s * v.x, s * v.y, s * v.z) }

    func cross(_ b: Vector3D) -> Vector3D {
        Vector3D(y * b.z - z * b.y, z * b.x - x * b.z, x * b.y - y * b.x)
    }

    func dot(_ b: Vector3D) -> Double { x * b.x + y * b.y + z * b.z }

    var length: Double { dot(self).squareRoot() }

    var float: SIMD3<Float> { SIMD3(Float(x), Float(y), Float(z)) }
}
