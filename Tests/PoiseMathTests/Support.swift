import PoiseMath
import PropertyBased

// Generators and tolerance helpers shared by the PoiseMath tests.

/// Uniformly distributed unit quaternions: points uniform in the 4-ball (rejection from the
/// cube) have uniformly distributed directions on the 3-sphere.
func unitQuaternions() -> Generator<Quaternion, Shrink.None<(Float, Float, Float, Float)>> {
    Gen.float(in: -1...1).simd4
        .filter { v in
            let n2 = (v * v).sum()
            return n2 > 0.01 && n2 <= 1
        }
        .map { v in Quaternion(components: v).normalized }
        .withoutShrink()
}

/// Vectors with components in −10…10.
func vectors() -> Generator<SIMD3<Float>, Shrink.Tuple<(Float, Float, Float)>> {
    Gen.float(in: -10...10).simd3
}

/// Any angle in (−π, π].
func angles() -> Generator<Float, Shrink.Floating<Float>> {
    Gen.float(in: -Float.pi...Float.pi)
}

/// Euler angles at least about 1.2° away from gimbal lock.
func eulerAnglesAwayFromLock() -> Generator<EulerAngles, Shrink.Tuple<(Float, Float, Float)>> {
    zip(Gen.float(in: -1.55...1.55), angles(), angles())
        .map { p, r, y in EulerAngles(pitch: p, roll: r, yaw: y) }
}

/// True when `a` and `b` are the same rotation within `tolerance` radians (sign ignored).
func sameRotation(_ a: Quaternion, _ b: Quaternion, within tolerance: Float = 1e-5) -> Bool {
    a.angle(to: b) <= tolerance
}

/// Largest absolute component difference.
func maxDifference(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float {
    let d = a - b
    return max(abs(d.x), max(abs(d.y), abs(d.z)))
}

/// Absolute difference of two angles, modulo 2π (0…π).
func angleDifference(_ a: Float, _ b: Float) -> Float {
    abs(wrappedAngle(a - b))
}

let sqrtHalf: Float = 0.7071067811865476
