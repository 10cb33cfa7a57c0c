import Testing
import PoiseFusion
import PoiseMath

@Suite struct DeviceMotionTests {
    @Test func lyingFlatAtRest() {
        let sample = InertialSample(accelerometer: SIMD3(0, 0, DeviceMotion.standardGravity),
                                    gyroscope: SIMD3(0.01, 0, 0), magnetometer: SIMD3(0, 20, -40))
        let status = FilterStatus(gyroscopeBias: SIMD3(0.01, 0, 0), gyroscopeBiasUncertainty: 0.001)
        let motion = DeviceMotion(attitude: .identity, status: status, sample: sample)
        #expect(motion.gravity == SIMD3(0, 0, -DeviceMotion.standardGravity))
        #expect(dot(motion.userAcceleration, motion.userAcceleration) < 1e-10)
        #expect(motion.rotationRate == .zero)
        #expect(motion.magneticField == SIMD3(0, 20, -40))
        #expect(motion.heading == 0)
        #expect(motion.gyroscopeBiasUncertainty == 0.001)
    }

    @Test func userAccelerationIsSpecificForceMinusGravityReaction() {
        let attitude = Quaternion(axis: SIMD3(1, 0, 0), angle: 0.7)
        let push = SIMD3<Float>(1, -2, 0.5)  // body frame
        let still = attitude.inverseRotate(SIMD3(0, 0, DeviceMotion.standardGravity))
        let sample = InertialSample(accelerometer: still + push, gyroscope: .zero)
        let motion = DeviceMotion(attitude: attitude, status: FilterStatus(), sample: sample)
        let error = motion.userAcceleration - push
        #expect(dot(error, error) < 1e-8)
        #expect(abs(dot(motion.gravity, motion.gravity).squareRoot() - DeviceMotion.standardGravity) < 1e-4)
        #expect(motion.heading == nil, "6D attitude has no north")
    }

    @Test func headingIsClockwiseFromNorthOfTheTopEdge() throws {
        // Turning left (counter-clockwise seen from above) by 90° points the top edge west.
        let west = Quaternion(axis: SIMD3(0, 0, 1), angle: .pi / 2)
        let heading = try #require(DeviceMotion.heading(of: west))
        #expect(abs(heading - 270) < 0.01)
        let east = Quaternion(axis: SIMD3(0, 0, 1), angle: -.pi / 2)
        #expect(abs(try #require(DeviceMotion.heading(of: east)) - 90) < 0.01)
    }

    @Test func headingOfAnUprightDeviceFollowsItsBack() throws {
        // Standing up (top edge up), screen towards the user facing south: back points north.
        let upright = Quaternion(axis: SIMD3(1, 0, 0), angle: .pi / 2)
        let heading = try #require(DeviceMotion.heading(of: upright))
        #expect(min(heading, 360 - heading) < 0.01)
    }

    @Test func explicitNorthReferenceOverridesMissingMagnetometer() {
        let sample = InertialSample(accelerometer: SIMD3(0, 0, 9.8), gyroscope: .zero)
        let motion = DeviceMotion(attitude: .identity, status: FilterStatus(), sample: sample, northReferenced: true)
        #expect(motion.heading == 0)
    }
}
