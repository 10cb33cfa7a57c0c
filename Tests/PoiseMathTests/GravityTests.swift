import PoiseMath
import PropertyBased
import Testing

@Suite struct GravityTests {
    @Test func flatDevice() {
        let flat = Quaternion.identity
        #expect(flat.gravity() == SIMD3(0, 0, -9.80665))
        let accelerometer = SIMD3<Float>(0, 0, 9.80665)
        #expect(flat.userAcceleration(accelerometer: accelerometer) == SIMD3(0, 0, 0))
        #expect(flat.worldUserAcceleration(accelerometer: accelerometer) == SIMD3(0, 0, 0))
        // Pushed up at 1 m/s²: the accelerometer reads 1 m/s² more along +z.
        let pushed = flat.userAcceleration(accelerometer: accelerometer + SIMD3(0, 0, 1))
        #expect(maxDifference(pushed, SIMD3(0, 0, 1)) < 1e-6)
    }

    @Test func faceDownAndOnEdge() {
        let faceDown = Quaternion(axis: SIMD3(0, 1, 0), angle: Float.pi)
        #expect(maxDifference(faceDown.gravity(), SIMD3(0, 0, 9.80665)) < 1e-5)
        // Top edge up (pitch +90°): gravity pulls toward −y in the body.
        let upright = Quaternion(EulerAngles(pitch: Float.pi / 2, roll: 0, yaw: 0.7))
        #expect(maxDifference(upright.gravity(magnitude: 1), SIMD3(0, -1, 0)) < 1e-6)
    }

    @Test func restingDeviceHasNoUserAcceleration() async {
        await propertyCheck(count: 300, input: unitQuaternions()) { q in
            // At rest the accelerometer reads the reaction to gravity: up, in body coordinates.
            let accelerometer = q.inverseRotate(SIMD3(0, 0, Gravity.standard))
            #expect(maxDifference(q.userAcceleration(accelerometer: accelerometer), .zero) < 5e-5)
            #expect(maxDifference(q.worldUserAcceleration(accelerometer: accelerometer), .zero) < 5e-5)
            #expect(abs((q.gravity() * q.gravity()).sum().squareRoot() - Gravity.standard) < 1e-4)
        }
    }

    @Test func worldLayoutOfTheAttitude() async {
        await propertyCheck(count: 200, input: unitQuaternions(), vectors()) { q, a in
            let ned = WorldAxes.enu.convert(attitude: q, to: .ned)
            #expect(maxDifference(ned.gravity(world: .ned), q.gravity()) < 1e-5)
            #expect(maxDifference(ned.userAcceleration(accelerometer: a, world: .ned),
                                  q.userAcceleration(accelerometer: a)) < 1e-4)
            let world = ned.worldUserAcceleration(accelerometer: a, world: .ned)
            #expect(maxDifference(WorldAxes.ned.convert(world, to: .enu),
                                  q.worldUserAcceleration(accelerometer: a)) < 1e-4)
        }
    }
}
