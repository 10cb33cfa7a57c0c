import PoiseMath
import PropertyBased
import Testing

@Suite struct EulerAnglesTests {
    /// Each angle alone is a rotation about its own axis.
    @Test func singleAxes() {
        let a: Float = 0.4
        #expect(sameRotation(Quaternion(EulerAngles(pitch: a, roll: 0, yaw: 0)),
                             Quaternion(axis: SIMD3(1, 0, 0), angle: a), within: 1e-7))
        #expect(sameRotation(Quaternion(EulerAngles(pitch: 0, roll: a, yaw: 0)),
                             Quaternion(axis: SIMD3(0, 1, 0), angle: a), within: 1e-7))
        #expect(sameRotation(Quaternion(EulerAngles(pitch: 0, roll: 0, yaw: a)),
                             Quaternion(axis: SIMD3(0, 0, 1), angle: a), within: 1e-7))
    }

    /// R = Rz(yaw)·Rx(pitch)·Ry(roll).
    @Test func order() async {
        await propertyCheck(count: 300, input: eulerAnglesAwayFromLock()) { e in
            let composed = Quaternion(axis: SIMD3(0, 0, 1), angle: e.yaw)
                * Quaternion(axis: SIMD3(1, 0, 0), angle: e.pitch)
                * Quaternion(axis: SIMD3(0, 1, 0), angle: e.roll)
            #expect(sameRotation(Quaternion(e), composed, within: 2e-6))
        }
    }

    @Test func roundTripAwayFromLock() async {
        await propertyCheck(count: 500, input: eulerAnglesAwayFromLock()) { e in
            let back = EulerAngles(Quaternion(e))
            #expect(abs(back.pitch - e.pitch) < 1e-5, "\(e) -> \(back)")
            #expect(angleDifference(back.roll, e.roll) < 1e-4, "\(e) -> \(back)")
            #expect(angleDifference(back.yaw, e.yaw) < 1e-4, "\(e) -> \(back)")
        }
    }

    @Test func quaternionRoundTripAndRanges() async {
        await propertyCheck(count: 500, input: unitQuaternions()) { q in
            let e = EulerAngles(q)
            #expect(e.pitch >= -Float.pi / 2 && e.pitch <= Float.pi / 2)
            #expect(e.roll > -Float.pi && e.roll <= Float.pi.nextUp)
            #expect(e.yaw > -Float.pi && e.yaw <= Float.pi.nextUp)
            #expect(sameRotation(Quaternion(e), q, within: 5e-6), "\(q) -> \(e)")
            // Sign of q does not matter.
            let f = EulerAngles(Quaternion(components: -q.components))
            #expect(abs(f.pitch - e.pitch) < 1e-6 && angleDifference(f.roll, e.roll) < 1e-5
                    && angleDifference(f.yaw, e.yaw) < 1e-5)
        }
    }

    /// Agrees with the closed forms usually quoted for Core Motion's quaternion.
    @Test func matchesCoreMotionClosedForms() async {
        await propertyCheck(count: 300, input: unitQuaternions()) { q in
            let w = q.w, x = q.x, y = q.y, z = q.z
            let sinPitch = 2 * (w * x + y * z)
            guard abs(sinPitch) < 0.999 else { return }
            let pitch = _asin(sinPitch)
            let roll = _atan2(2 * (w * y - x * z), 1 - 2 * (x * x + y * y))
            let yaw = _atan2(2 * (w * z - x * y), 1 - 2 * (x * x + z * z))
            let e = EulerAngles(q)
            #expect(abs(e.pitch - pitch) < 1e-4)
            #expect(angleDifference(e.roll, roll) < 1e-3)
            #expect(angleDifference(e.yaw, yaw) < 1e-3)
        }
    }

    /// Exactly ±90° pitch: roll becomes 0, yaw takes yaw ± roll, rotation unchanged.
    @Test func gimbalLockExact() async {
        await propertyCheck(count: 300, input: angles(), angles(), Gen.bool) { roll, yaw, up in
            let pitch: Float = up ? Float.pi / 2 : -Float.pi / 2
            let q = Quaternion(EulerAngles(pitch: pitch, roll: roll, yaw: yaw))
            let e = EulerAngles(q)
            #expect(e.roll == 0)
            #expect(abs(e.pitch - pitch) < 1e-6)
            #expect(angleDifference(e.yaw, up ? yaw + roll : yaw - roll) < 1e-5)
            #expect(sameRotation(Quaternion(e), q, within: 2e-6), "\(q) -> \(e)")
            #expect(e.yaw.isFinite && e.pitch.isFinite)
        }
    }

    /// Just inside and just outside the lock tolerance the rotation is still reproduced.
    @Test func nearGimbalLock() async {
        let distances = Gen.float(in: 0...(4 * EulerAngles.gimbalLockTolerance))
        await propertyCheck(count: 300, input: distances, angles(), angles(), Gen.bool) { d, roll, yaw, up in
            let pitch: Float = (Float.pi / 2 - d) * (up ? 1 : -1)
            let q = Quaternion(EulerAngles(pitch: pitch, roll: roll, yaw: yaw))
            let e = EulerAngles(q)
            #expect(sameRotation(Quaternion(e), q, within: 4e-4), "\(q) -> \(e)")
            #expect(abs(e.pitch - pitch) < 1e-5)
        }
    }

    @Test func yawMinusPiMapsToPlusPi() {
        // Half turns about z and y: yaw or roll is +π whichever sign the quaternion has.
        for e in [EulerAngles(Quaternion(w: 0, x: 0, y: 0, z: -1)), EulerAngles(Quaternion(w: 0, x: 0, y: 0, z: 1))] {
            #expect(abs(e.yaw - Float.pi) < 1e-6)
            #expect(e.roll == 0 && e.pitch == 0)
        }
        for e in [EulerAngles(Quaternion(w: 0, x: 0, y: -1, z: 0)), EulerAngles(Quaternion(w: 0, x: 0, y: 1, z: 0))] {
            #expect(abs(e.roll - Float.pi) < 1e-6)
        }
        #expect(EulerAngles(Quaternion(EulerAngles(pitch: 0.2, roll: -Float.pi, yaw: -Float.pi))).yaw > 0)
        #expect(EulerAngles(Quaternion.identity) == EulerAngles(pitch: 0, roll: 0, yaw: 0))
    }

    /// The matrix of the angles is the product of the three elementary matrices, entry by entry.
    @Test func matrixForm() async {
        await propertyCheck(count: 200, input: eulerAnglesAwayFromLock()) { e in
            let (cp, sp) = (_cos(e.pitch), _sin(e.pitch))
            let (cr, sr) = (_cos(e.roll), _sin(e.roll))
            let (cy, sy) = (_cos(e.yaw), _sin(e.yaw))
            let rz = RotationMatrix(row0: SIMD3(cy, -sy, 0), row1: SIMD3(sy, cy, 0), row2: SIMD3(0, 0, 1))
            let rx = RotationMatrix(row0: SIMD3(1, 0, 0), row1: SIMD3(0, cp, -sp), row2: SIMD3(0, sp, cp))
            let ry = RotationMatrix(row0: SIMD3(cr, 0, sr), row1: SIMD3(0, 1, 0), row2: SIMD3(-sr, 0, cr))
            let expected = rz * rx * ry
            let m = RotationMatrix(e)
            #expect(maxDifference(m.column0, expected.column0) < 2e-6)
            #expect(maxDifference(m.column1, expected.column1) < 2e-6)
            #expect(maxDifference(m.column2, expected.column2) < 2e-6)
            let back = EulerAngles(m)
            #expect(abs(back.pitch - e.pitch) < 1e-4)
        }
    }

    @Test func degrees() {
        let e = EulerAngles(pitch: Float.pi / 2, roll: -Float.pi / 4, yaw: Float.pi)
        #expect(maxDifference(e.degrees, SIMD3(90, -45, 180)) < 1e-4)
    }
}

