import PoiseMath
import PropertyBased
import Testing

@Suite struct HeadingTests {
    @Test func tiltKnownPoses() {
        #expect(Quaternion.identity.tilt == 0)
        #expect(abs(Quaternion(axis: SIMD3(1, 0, 0), angle: Float.pi).tilt - Float.pi) < 1e-6)
        #expect(abs(Quaternion(axis: SIMD3(0, 1, 0), angle: Float.pi / 2).tilt - Float.pi / 2) < 1e-6)
        // Heading does not tilt.
        #expect(Quaternion(axis: SIMD3(0, 0, 1), angle: 2).tilt < 1e-6)
    }

    @Test func tiltIsAngleOfBodyZFromVertical() async {
        await propertyCheck(count: 300, input: unitQuaternions()) { q in
            let z = q.rotate(SIMD3(0, 0, 1))
            #expect(abs(q.tilt - _acos(max(-1, min(1, z.z)))) < 1e-3)
            #expect(q.tilt >= 0 && q.tilt <= Float.pi)
        }
    }

    /// Changing only pitch and roll leaves the heading alone.
    @Test func headingInvariantUnderPitchAndRoll() async {
        let pitches = Gen.float(in: -1.55...1.55)
        await propertyCheck(count: 500, input: angles(), pitches, angles(), pitches, angles()) { yaw, p1, r1, p2, r2 in
            let a = Quaternion(EulerAngles(pitch: p1, roll: r1, yaw: yaw))
            let b = Quaternion(EulerAngles(pitch: p2, roll: r2, yaw: yaw))
            #expect(angleDifference(a.heading, b.heading) < 1e-4)
            #expect(angleDifference(a.heading, yaw) < 1e-4)
        }
    }

    @Test func compassHeadingOfTheDeviceTop() async {
        // ENU: top (body +y) north → 0°, east → 90°, south → 180°, west → 270°.
        #expect(Quaternion.identity.compassHeading() == 0)
        #expect(abs(Quaternion(axis: SIMD3(0, 0, 1), angle: -Float.pi / 2).compassHeading() - 90) < 1e-4)
        #expect(abs(Quaternion(axis: SIMD3(0, 0, 1), angle: Float.pi).compassHeading() - 180) < 1e-4)
        #expect(abs(Quaternion(axis: SIMD3(0, 0, 1), angle: Float.pi / 2).compassHeading() - 270) < 1e-4)

        await propertyCheck(count: 300, input: unitQuaternions()) { q in
            let top = q.rotate(SIMD3(0, 1, 0))
            let h = q.compassHeading()
            #expect(h >= 0 && h < 360)
            guard top.x * top.x + top.y * top.y > 0.01 else { return }
            var expected = degrees(fromRadians: _atan2(top.x, top.y))
            if expected < 0 { expected += 360 }
            let difference = abs(h - expected)
            #expect(min(difference, 360 - difference) < 0.05, "\(h) vs \(expected)")
        }
    }

    @Test func compassHeadingIndependentOfWorldLayout() async {
        await propertyCheck(count: 200, input: unitQuaternions()) { q in
            let h = q.compassHeading(world: .enu)
            for world in [WorldAxes.nwu, .ned] {
                let other = WorldAxes.enu.convert(attitude: q, to: world).compassHeading(world: world)
                let difference = abs(other - h)
                #expect(min(difference, 360 - difference) < 0.01)
            }
        }
    }

    /// Held upright (pitch +90°) the heading follows the back camera (−z); top down (−90°)
    /// it follows the screen normal (+z). Always finite.
    @Test func uprightDevice() async {
        await propertyCheck(count: 200, input: angles(), angles(), Gen.bool) { roll, yaw, up in
            let q = Quaternion(EulerAngles(pitch: up ? Float.pi / 2 : -Float.pi / 2, roll: roll, yaw: yaw))
            #expect(q.heading.isFinite)
            let back = q.rotate(SIMD3(0, 0, up ? -1 : 1))
            var expected = degrees(fromRadians: _atan2(back.x, back.y))
            if expected < 0 { expected += 360 }
            let difference = abs(q.compassHeading() - expected)
            #expect(min(difference, 360 - difference) < 0.01)
        }
    }
}
