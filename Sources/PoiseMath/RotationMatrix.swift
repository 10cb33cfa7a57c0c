// 3×3 rotation matrices, stored by column.

/// A 3×3 rotation matrix stored as three columns, body-to-world like `Quaternion`.
///
/// `R * v` maps body coordinates to world coordinates, so **column j is body axis j expressed
/// in the world frame** (`column0` = where the body x axis points, and so on), and row i holds
/// world axis i expressed in body coordinates. `R(q)` equals the matrix of `q.rotate`.
/// Entries are written `m_rc` (row r, column c) in the documentation.
@frozen
public struct RotationMatrix: Hashable, Sendable {
    /// First column: the body x axis in world coordinates.
    public var column0: SIMD3<Float>
    /// Second column: the body y axis in world coordinates.
    public var column1: SIMD3<Float>
    /// Third column: the body z axis in world coordinates.
    public var column2: SIMD3<Float>

    /// A matrix from its columns.
    @inlinable @inline(__always)
    public init(column0: SIMD3<Float>, column1: SIMD3<Float>, column2: SIMD3<Float>) {
        self.column0 = column0
        self.column1 = column1
        self.column2 = column2
    }

    /// A matrix from its rows.
    @inlinable
    public init(row0: SIMD3<Float>, row1: SIMD3<Float>, row2: SIMD3<Float>) {
        self.init(column0: SIMD3(row0.x, row1.x, row2.x),
                  column1: SIMD3(row0.y, row1.y, row2.y),
                  column2: SIMD3(row0.z, row1.z, row2.z))
    }

    /// The identity matrix.
    @inlinable public static var identity: RotationMatrix {
        RotationMatrix(column0: SIMD3(1, 0, 0), column1: SIMD3(0, 1, 0), column2: SIMD3(0, 0, 1))
    }

    /// Row `i` (0, 1, 2): world axis `i` in body coordinates.
    @inlinable public var row0: SIMD3<Float> { SIMD3(column0.x, column1.x, column2.x) }
    @inlinable public var row1: SIMD3<Float> { SIMD3(column0.y, column1.y, column2.y) }
    @inlinable public var row2: SIMD3<Float> { SIMD3(column0.z, column1.z, column2.z) }

    /// Entry `m_rc` at `row` and `column`, both 0…2.
    @inlinable
    public subscript(row: Int, column: Int) -> Float {
        let c = column == 0 ? column0 : (column == 1 ? column1 : column2)
        return c[row]
    }
}

extension RotationMatrix {
    /// The matrix of the rotation `q`. A non-unit `q` is treated as its normalised value
    /// (the formula divides by `|q|²`); the zero quaternion gives the identity.
    @inlinable
    public init(_ q: Quaternion) {
        let n2 = q.lengthSquared
        let s: Float = n2 > 0 ? 2 / n2 : 0
        let w = q.w, x = q.x, y = q.y, z = q.z
        let xx = x * x * s, yy = y * y * s, zz = z * z * s
        let xy = x * y * s, xz = x * z * s, yz = y * z * s
        let wx = w * x * s, wy = w * y * s, wz = w * z * s
        self.init(column0: SIMD3(1 - (yy + zz), xy + wz, xz - wy),
                  column1: SIMD3(xy - wz, 1 - (xx + zz), yz + wx),
                  column2: SIMD3(xz + wy, yz - wx, 1 - (xx + yy)))
    }

    /// The unit quaternion of this rotation, with `w ≥ 0`.
    ///
    /// Shepperd's method: of `w, x, y, z` the one with the largest magnitude is taken from the
    /// diagonal (trace or one diagonal element), and the other three from sums and differences
    /// of off-diagonal pairs divided by it, so no division by a small number ever occurs.
    @inlinable
    public var quaternion: Quaternion {
        let m00 = column0.x, m10 = column0.y, m20 = column0.z
        let m01 = column1.x, m11 = column1.y, m21 = column1.z
        let m02 = column2.x, m12 = column2.y, m22 = column2.z
        let trace = m00 + m11 + m22
        let q: Quaternion
        if trace >= m00 && trace >= m11 && trace >= m22 {
            let r = squareRoot(max(1 + trace, 0)), f = 0.5 / r
            q = Quaternion(w: r / 2, x: (m21 - m12) * f, y: (m02 - m20) * f, z: (m10 - m01) * f)
        } else if m00 >= m11 && m00 >= m22 {
            let r = squareRoot(max(1 + m00 - m11 - m22, 0)), f = 0.5 / r
            q = Quaternion(w: (m21 - m12) * f, x: r / 2, y: (m01 + m10) * f, z: (m02 + m20) * f)
        } else if m11 >= m22 {
            let r = squareRoot(max(1 - m00 + m11 - m22, 0)), f = 0.5 / r
            q = Quaternion(w: (m02 - m20) * f, x: (m01 + m10) * f, y: r / 2, z: (m12 + m21) * f)
        } else {
            let r = squareRoot(max(1 - m00 - m11 + m22, 0)), f = 0.5 / r
            q = Quaternion(w: (m10 - m01) * f, x: (m02 + m20) * f, y: (m12 + m21) * f, z: r / 2)
        }
        return q.normalized.canonicalized
    }

    /// The transpose, which for a rotation is the inverse (world-to-body).
    @inlinable
    public var transpose: RotationMatrix {
        RotationMatrix(column0: row0, column1: row1, column2: row2)
    }

    /// The determinant (+1 for a rotation).
    @inlinable
    public var determinant: Float { dot(column0, cross(column1, column2)) }

    /// `R v`: body coordinates to world coordinates, like `Quaternion.rotate(_:)`.
    @inlinable @inline(__always)
    public func rotate(_ v: SIMD3<Float>) -> SIMD3<Float> {
        column0 * v.x + column1 * v.y + column2 * v.z
    }

    /// `Rᵀ v`: world coordinates to body coordinates, like `Quaternion.inverseRotate(_:)`.
    @inlinable @inline(__always)
    public func inverseRotate(_ v: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3(dot(column0, v), dot(column1, v), dot(column2, v))
    }

    /// Matrix times vector; same as `rotate(_:)`.
    @inlinable @inline(__always)
    public static func * (m: RotationMatrix, v: SIMD3<Float>) -> SIMD3<Float> { m.rotate(v) }

    /// Matrix product `a b`: apply `b` first, then `a` (matches `Quaternion` `*`).
    @inlinable
    public static func * (a: RotationMatrix, b: RotationMatrix) -> RotationMatrix {
        RotationMatrix(column0: a.rotate(b.column0), column1: a.rotate(b.column1),
                       column2: a.rotate(b.column2))
    }
}

extension Quaternion {
    /// This rotation as a matrix; see `RotationMatrix`.
    @inlinable
    public var rotationMatrix: RotationMatrix { RotationMatrix(self) }

    /// The rotation of a rotation matrix (Shepperd's method, `w ≥ 0`).
    @inlinable
    public init(_ m: RotationMatrix) { self = m.quaternion }
}
