import PoiseFlightCore
import PoiseMath
import PoiseTelemetry
@testable import PoiseView
import PropertyBased
import Testing

/// Unit quaternions, uniform on the 3-sphere (rejection sampling from the 4-cube).
func unitQuaternions() -> Generator<Quaternion, Shrink.None<(Float, Float, Float, Float)>> {
    Gen.float(in: -1...1).simd4
        .filter { v in let n2 = (v * v).sum(); return n2 > 0.01 && n2 <= 1 }
        .map { v in Quaternion(components: v).normalized }
        .withoutShrink()
}

/// 4×4 inverse by Gauss–Jordan elimination, column-major, in Double: the "expensive inverse"
/// the background document's closed form avoids.
func inverse(_ m: [Float]) -> [Float] {
    var a = (0 ..< 4).map { r in (0 ..< 4).map { c in Double(m[4 * c + r]) } + (0 ..< 4).map { $0 == r ? 1.0 : 0.0 } }
    for col in 0 ..< 4 {
        let pivot = (col ..< 4).max { abs(a[$0][col]) < abs(a[$1][col]) }!
        a.swapAt(col, pivot)
        let p = a[col][col]
        a[col] = a[col].map { $0 / p }
        for r in 0 ..< 4 where r != col {
            let f = a[r][col]
            a[r] = zip(a[r], a[col]).map { $0 - f * $1 }
        }
    }
    var out = [Float](repeating: 0, count: 16)
    for r in 0 ..< 4 { for c in 0 ..< 4 { out[4 * c + r] = Float(a[r][4 + c]) } }
    return out
}

func maxDifference(_ a: [Float], _ b: [Float]) -> Float { zip(a, b).map { abs($0 - $1) }.max() ?? 0 }

@Suite struct ModelViewMatrixTests {
    /// Eq. V–VII: vTm = (IMU_T_cam · cam_T_v)⁻¹ = [Rᵀ | −d], with IMU_T_cam = [R | 0] the
    /// body-to-world rotation and cam_T_v a translation by d = (0, 0, 4).
    @Test func dieModelViewIsTheInverseOfCameraPlacement() async {
        await propertyCheck(count: 300, input: unitQuaternions()) { q in
            let r = RotationMatrix(q)
            let imuFromCamera: [Float] = [r.column0.x, r.column0.y, r.column0.z, 0,
                                          r.column1.x, r.column1.y, r.column1.z, 0,
                                          r.column2.x, r.column2.y, r.column2.z, 0, 0, 0, 0, 1]
            let cameraFromView: [Float] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 4, 1]
            let expected = inverse(ModelViewMatrix.multiply(imuFromCamera, cameraFromView))
            #expect(maxDifference(ModelViewMatrix.die(attitude: q), expected) < 1e-5)
        }
    }

    @Test func identityAttitudeLooksDownTheCameraAxisFromFourUnits() {
        #expect(ModelViewMatrix.die(attitude: .identity) == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -4, 1])
    }

    /// A world point seen from the board: Rᵀ p − d (the die stays put while the board turns).
    @Test func worldPointsMoveOppositeToTheBoard() async {
        await propertyCheck(count: 200, input: unitQuaternions()) { q in
            let m = ModelViewMatrix.die(attitude: q)
            let p = SIMD3<Float>(0.3, -0.5, 0.5)
            let seen = SIMD3(m[0] * p.x + m[4] * p.y + m[8] * p.z + m[12],
                             m[1] * p.x + m[5] * p.y + m[9] * p.z + m[13],
                             m[2] * p.x + m[6] * p.y + m[10] * p.z + m[14])
            let expected = q.inverseRotate(p) - SIMD3(0, 0, 4)
            #expect(maxDifference([seen.x, seen.y, seen.z], [expected.x, expected.y, expected.z]) < 1e-5)
        }
    }

    /// The page's conversion back from MAVLink (FRD → NED) recovers the attitude Poise sent.
    @Test func mavlinkAttitudeConvertsBackToTheBodyAttitude() async {
        await propertyCheck(count: 200, input: unitQuaternions()) { q in
            for world in WorldAxes.allCases {
                var record = TickRecord()
                record.attitude = q
                let sent = TelemetryMessages.attitudeQuaternion(record, world: world)
                let back = ModelViewMatrix.bodyAttitude(frdToNED: [sent.q1, sent.q2, sent.q3, sent.q4], world: world)
                // Same rotation (q and −q): compare matrices.
                #expect(maxDifference(ModelViewMatrix.die(attitude: back), ModelViewMatrix.die(attitude: q)) < 1e-5)
            }
        }
    }

    /// Core Motion's relative attitude: the reference itself becomes the identity.
    @Test func relativeToItselfIsIdentity() async {
        await propertyCheck(count: 200, input: unitQuaternions(), unitQuaternions()) { q, reference in
            let r = ModelViewMatrix.relative(reference, to: reference)
            #expect(maxDifference(ModelViewMatrix.die(attitude: r), ModelViewMatrix.die(attitude: .identity)) < 1e-5)
            // And relative attitudes compose: ref ⊗ relative = attitude.
            let back = reference * ModelViewMatrix.relative(q, to: reference)
            #expect(maxDifference(back.components.toArray, q.components.toArray) < 1e-5)
        }
    }
}

extension SIMD4<Float> {
    var toArray: [Float] { [x, y, z, w] }
}
