import PoiseMath
import PropertyBased
import Testing

@Suite struct QuaternionOperationsTests {
    @Test func productIsAssociativeAndKeepsUnitNorm() async {
        await propertyCheck(count: 300, input: unitQuaternions(), unitQuaternions(), unitQuaternions()) { a, b, c in
            let left = (a * b) * c, right = a * (b * c)
            #expect(maxDifference4(left.components, right.components) < 2e-6)
            #expect(abs(left.lengthSquared - 1) < 3e-6)
        }
    }

    @Test func inverse() async {
        await propertyCheck(count: 300, input: unitQuaternions(), Gen.float(in: 0.1...10)) { q, scale in
            let s = Quaternion(components: q.components * scale)
            #expect(maxDifference4((s * s.inverse).components, Quaternion.identity.components) < 1e-5)
            #expect(maxDifference4((s.inverse * s).components, Quaternion.identity.components) < 1e-5)
            #expect(maxDifference4(q.inverse.components, q.conjugate.components) < 1e-6)
        }
    }

    @Test func dotIsCosineOfHalfAngle() {
        let q = Quaternion(axis: SIMD3(0, 1, 0), angle: 1.2)
        #expect(abs(dot(q, .identity) - _cos(0.6)) < 1e-6)
        #expect(dot(q, q) == q.lengthSquared)
    }

    @Test func angleBetweenAttitudes() async {
        await propertyCheck(count: 300, input: unitQuaternions(), vectors()) { q, v in
            // |v/10| ≤ 1.8 rad, so the step is the short way round.
            let expected = (v / 10).length
            let r = q * Quaternion(rotationVector: v / 10)
            #expect(abs(q.angle(to: r) - expected) < 1e-5, "\(expected)")
            #expect(q.angle(to: Quaternion(components: -q.components)) == 0)
            #expect(q.angle(to: q) == 0)
        }
    }

    @Test func smallAnglesAreAccurate() {
        let q = Quaternion(axis: SIMD3(0, 0, 1), angle: 0.3)
        let r = q * Quaternion(axis: SIMD3(1, 0, 0), angle: 1e-5)
        #expect(abs(q.angle(to: r) - 1e-5) < 2e-7)
    }

    @Test func relativeAttitude() async {
        await propertyCheck(count: 300, input: unitQuaternions(), unitQuaternions()) { q, reference in
            let identity = q.multiply(byInverseOf: q)
            #expect(maxDifference4(identity.components, Quaternion.identity.components) < 1e-6)
            let relative = q.multiply(byInverseOf: reference)
            #expect(maxDifference4((reference * relative).components, q.components) < 2e-6)
            // The relative attitude maps current body vectors into the reference body frame.
            let v = SIMD3<Float>(0.3, -0.5, 0.8)
            #expect(maxDifference(relative.rotate(v), reference.inverseRotate(q.rotate(v))) < 2e-6)
        }
    }

    @Test func canonicalSign() async {
        await propertyCheck(count: 200, input: unitQuaternions()) { q in
            let c = q.canonicalized
            #expect(c.w >= 0)
            #expect(Quaternion(components: -q.components).canonicalized == c)
            #expect(c == q || c.components == -q.components)
        }
        #expect(Quaternion(w: 0, x: -1, y: 0, z: 0).canonicalized == Quaternion(w: 0, x: 1, y: 0, z: 0))
        #expect(Quaternion(w: 0, x: 0, y: 0, z: -1).canonicalized == Quaternion(w: 0, x: 0, y: 0, z: 1))
    }

    @Test func finiteness() {
        #expect(Quaternion.identity.isFinite)
        #expect(!Quaternion(w: .nan, x: 0, y: 0, z: 0).isFinite)
        #expect(!Quaternion(w: 1, x: 0, y: .infinity, z: 0).isFinite)
    }

    @Test func rotationVectorRoundTrip() async {
        await propertyCheck(count: 300, input: unitQuaternions()) { q in
            let v = q.rotationVector
            #expect(v.length <= Float.pi + 1e-5)
            #expect(sameRotation(Quaternion(rotationVector: v), q, within: 2e-6))
            #expect(abs(q.angle - v.length) < 2e-6)
            #expect(sameRotation(Quaternion(axis: q.axis, angle: q.angle), q, within: 2e-6))
            #expect(sameRotation(Quaternion.exp(q.log), q, within: 2e-6))
        }
        let tiny = SIMD3<Float>(1e-7, -2e-7, 3e-8)
        #expect(maxDifference(Quaternion(rotationVector: tiny).rotationVector, tiny) < 1e-12)
        #expect(Quaternion.identity.rotationVector == SIMD3(0, 0, 0))
        #expect(Quaternion.identity.axis == SIMD3(1, 0, 0))
    }

    @Test func shortestArc() async {
        await propertyCheck(count: 300, input: vectors(), vectors()) { u, v in
            guard u.length > 1e-2, v.length > 1e-2 else { return }
            let q = Quaternion(from: u, to: v)
            #expect(abs(q.lengthSquared - 1) < 1e-5)
            #expect(maxDifference(q.rotate(u) / u.length, v / v.length) < 1e-4, "\(u) \(v)")
            // Shortest arc: the angle equals the angle between the vectors.
            let cosine = dot(u, v) / (u.length * v.length)
            #expect(abs(q.angle - _acos(max(-1, min(1, cosine)))) < 2e-3)
        }
    }

    /// Within a hair of antiparallel the arc is still exact.
    @Test func shortestArcNearlyAntiparallel() async {
        let tiny = Gen.float(in: -12 ... -2)  // log10 of the angle from antiparallel
        await propertyCheck(count: 300, input: unitQuaternions(), tiny, angles()) { q, exponent, spin in
            let epsilon = _exp(exponent * 2.302585)
            let u = q.rotate(SIMD3(0, 0, 1))
            let perpendicular = q.rotate(SIMD3(_cos(spin), _sin(spin), 0))
            let v = Quaternion(axis: perpendicular, angle: Float.pi - epsilon).rotate(u)
            let arc = Quaternion(from: 3 * u, to: v)
            #expect(arc.isFinite)
            #expect(maxDifference(arc.rotate(u), v) < 4e-6, "epsilon \(epsilon)")  // a few Float ulps
        }
        let huge = SIMD3<Float>(3e38, -1e38, 2e38)
        #expect(maxDifference(Quaternion(from: huge, to: SIMD3(0, 0, 1e-30)).rotate((huge / 3e38) / (huge / 3e38).length), SIMD3(0, 0, 1)) < 1e-5)
    }

    @Test(arguments: [SIMD3<Float>(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1), SIMD3(0.2, -3, 1.5)])
    func shortestArcAntiparallelAndParallel(u: SIMD3<Float>) {
        let half = Quaternion(from: u, to: -2 * u)
        #expect(half.isFinite)
        #expect(abs(half.lengthSquared - 1) < 1e-6)
        #expect(maxDifference(half.rotate(u), -u) < 1e-5)
        #expect(abs(half.angle - Float.pi) < 1e-5)
        #expect(abs(dot(half.axis, u)) < 1e-6)
        #expect(sameRotation(Quaternion(from: u, to: 3 * u), .identity, within: 1e-6))
        #expect(Quaternion(from: u, to: SIMD3(0, 0, 0)) == .identity)
    }
}

extension SIMD3<Float> {
    var length: Float { (self * self).sum().squareRoot() }
}

func maxDifference4(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> Float {
    let d = a - b
    return max(max(abs(d.x), abs(d.y)), max(abs(d.z), abs(d.w)))
}
