import PoiseMath
import PropertyBased
import Testing

@Suite struct RotationMatrixTests {
    @Test func columnsAreBodyAxesInWorld() async {
        await propertyCheck(count: 300, input: unitQuaternions()) { q in
            let m = RotationMatrix(q)
            #expect(maxDifference(m.column0, q.rotate(SIMD3(1, 0, 0))) < 1e-6)
            #expect(maxDifference(m.column1, q.rotate(SIMD3(0, 1, 0))) < 1e-6)
            #expect(maxDifference(m.column2, q.rotate(SIMD3(0, 0, 1))) < 1e-6)
            #expect(abs(m.determinant - 1) < 1e-5)
        }
    }

    @Test func quaternionRoundTrip() async {
        await propertyCheck(count: 500, input: unitQuaternions()) { q in
            let back = RotationMatrix(q).quaternion
            #expect(sameRotation(back, q, within: 2e-6), "\(q) -> \(back)")
            #expect(back.w >= 0)
            #expect(abs(back.lengthSquared - 1) < 1e-6)
        }
    }

    /// Half turns make the trace −1 and force each of Shepperd's non-trace branches.
    @Test(arguments: [
        SIMD3<Float>(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1),
        SIMD3(sqrtHalf, sqrtHalf, 0), SIMD3(0, -sqrtHalf, sqrtHalf), SIMD3(1, 1, 1) / Float(3).squareRoot(),
    ])
    func halfTurnsRoundTrip(axis: SIMD3<Float>) {
        let q = Quaternion(real: 0, imaginary: axis)
        let back = RotationMatrix(q).quaternion
        #expect(sameRotation(back, q, within: 1e-6), "\(back)")
        #expect(back.isFinite)
    }

    @Test func identity() {
        #expect(RotationMatrix(.identity) == .identity)
        #expect(RotationMatrix.identity.quaternion == .identity)
    }

    @Test func productMatchesQuaternionProduct() async {
        await propertyCheck(count: 300, input: unitQuaternions(), unitQuaternions()) { a, b in
            let product = RotationMatrix(a) * RotationMatrix(b)
            #expect(sameRotation(product.quaternion, a * b, within: 3e-6))
        }
    }

    @Test func rotateMatchesQuaternionRotate() async {
        await propertyCheck(count: 300, input: unitQuaternions(), vectors()) { q, v in
            let m = RotationMatrix(q)
            #expect(maxDifference(m * v, q.rotate(v)) < 1e-5)
            #expect(maxDifference(m.rotate(v), q.rotate(v)) < 1e-5)
            #expect(maxDifference(m.inverseRotate(v), q.inverseRotate(v)) < 1e-5)
        }
    }

    @Test func transposeIsInverse() async {
        await propertyCheck(count: 200, input: unitQuaternions()) { q in
            let m = RotationMatrix(q)
            let p = m * m.transpose
            #expect(maxDifference(p.column0, SIMD3(1, 0, 0)) < 1e-6)
            #expect(maxDifference(p.column1, SIMD3(0, 1, 0)) < 1e-6)
            #expect(maxDifference(p.column2, SIMD3(0, 0, 1)) < 1e-6)
            #expect(sameRotation(m.transpose.quaternion, q.conjugate, within: 2e-6))
        }
    }

    @Test func rowsAndSubscript() {
        let m = RotationMatrix(row0: SIMD3(1, 2, 3), row1: SIMD3(4, 5, 6), row2: SIMD3(7, 8, 9))
        #expect(m.column0 == SIMD3(1, 4, 7))
        #expect(m.row1 == SIMD3(4, 5, 6))
        #expect(m[0, 2] == 3)
        #expect(m[2, 0] == 7)
        #expect(m.transpose.row0 == SIMD3(1, 4, 7))
    }

    @Test func nonUnitQuaternionIsNormalised() {
        let q = Quaternion(axis: SIMD3(0, 0, 1), angle: 0.7)
        let scaled = Quaternion(components: q.components * 3)
        let a = RotationMatrix(q), b = RotationMatrix(scaled)
        #expect(maxDifference(a.column0, b.column0) < 1e-6)
        #expect(maxDifference(a.column1, b.column1) < 1e-6)
        #expect(RotationMatrix(Quaternion(w: 0, x: 0, y: 0, z: 0)) == .identity)
    }
}
