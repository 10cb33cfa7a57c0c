import PoiseMath
import PropertyBased
import Testing

@Suite struct InterpolationTests {
    @Test func endpoints() async {
        await propertyCheck(count: 300, input: unitQuaternions(), unitQuaternions()) { a, b in
            #expect(sameRotation(a.slerp(to: b, t: 0), a, within: 1e-6))
            #expect(sameRotation(a.slerp(to: b, t: 1), b, within: 2e-6))
            #expect(sameRotation(a.nlerp(to: b, t: 0), a, within: 1e-6))
            #expect(sameRotation(a.nlerp(to: b, t: 1), b, within: 2e-6))
        }
    }

    @Test func unitNormAndConstantSpeed() async {
        await propertyCheck(count: 300, input: unitQuaternions(), unitQuaternions(), Gen.float(in: 0...1)) { a, b, t in
            let s = a.slerp(to: b, t: t)
            #expect(abs(s.lengthSquared - 1) < 2e-6)
            let total = a.angle(to: b)
            #expect(abs(a.angle(to: s) - t * total) < 1e-4, "t \(t) total \(total)")
            #expect(abs(s.angle(to: b) - (1 - t) * total) < 1e-4)
        }
    }

    /// q and −q are the same attitude, so the path must not change with the sign of the target.
    @Test func shortPath() async {
        await propertyCheck(count: 200, input: unitQuaternions(), unitQuaternions(), Gen.float(in: 0...1)) { a, b, t in
            let negated = Quaternion(components: -b.components)
            #expect(sameRotation(a.slerp(to: b, t: t), a.slerp(to: negated, t: t), within: 2e-6))
            #expect(a.angle(to: a.slerp(to: b, t: t)) <= Float.pi / 2 * t + 1e-4 || a.angle(to: b) > Float.pi / 2)
        }
    }

    /// Close attitudes take the nlerp fallback and still interpolate correctly.
    @Test func closeAttitudes() {
        let a = Quaternion(axis: SIMD3(0, 0, 1), angle: 0.2)
        let b = a * Quaternion(axis: SIMD3(1, 0, 0), angle: 0.01)
        let mid = a.slerp(to: b, t: 0.5)
        #expect(sameRotation(mid, a * Quaternion(axis: SIMD3(1, 0, 0), angle: 0.005), within: 1e-6))
        #expect(a.slerp(to: a, t: 0.3) == a.normalized)
    }
}
