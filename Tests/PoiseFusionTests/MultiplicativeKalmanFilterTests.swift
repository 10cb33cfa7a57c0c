import Testing
import PoiseFusion
import PoiseMath

@Suite struct MultiplicativeKalmanFilterTests {
    @Test func estimatesTheGyroscopeBiasAtRest() {
        let bias = SIMD3<Float>(0.008, -0.005, 0.01)
        var filter = MultiplicativeKalmanFilter()
        var random = FixtureRandom(state: 3)
        let initialUncertainty = MultiplicativeKalmanFilter.Settings.default.initialBiasUncertainty
        for _ in 0..<2000 {
            var sample = ClassicFixture.sample(ClassicFixture.tilted)
            sample.gyroscope += bias + SIMD3(random.normal(), random.normal(), random.normal()) * 0.003
            filter.update(sample, dt: 0.01)
        }
        let error = filter.status.gyroscopeBias - bias
        #expect(dot(error, error).squareRoot() < 1e-3, "bias \(filter.status.gyroscopeBias)")
        #expect(filter.status.gyroscopeBiasUncertainty < initialUncertainty / 10)
        #expect(filter.status.flags.contains(.atRest))
        #expect(ClassicFixture.angle(filter.attitude, ClassicFixture.tilted) < 0.5)
    }

    @Test func rejectsLinearAcceleration() {
        var filter = MultiplicativeKalmanFilter()
        filter.update(ClassicFixture.sample(.identity), dt: 0.01)
        var shaken = ClassicFixture.sample(.identity)
        shaken.accelerometer += SIMD3(8, 0, 0)
        for _ in 0..<100 { filter.update(shaken, dt: 0.01) }
        #expect(filter.status.flags.contains(.accelerationRejected))
        #expect(ClassicFixture.angle(filter.attitude, .identity) < 0.5)
    }

    @Test func magneticDisturbanceNeitherTiltsNorTurns() {
        var filter = MultiplicativeKalmanFilter()
        for _ in 0..<100 { filter.update(ClassicFixture.sample(.identity), dt: 0.01) }
        var disturbed = ClassicFixture.sample(.identity)
        disturbed.magnetometer = SIMD3(60, 10, -20)  // a magnet nearby: norm and dip off
        for _ in 0..<1000 { filter.update(disturbed, dt: 0.01) }
        #expect(filter.status.flags.contains(.magneticDisturbance))
        #expect(ClassicFixture.angle(filter.attitude, .identity) < 0.5)
    }

    @Test func headingOnlyMagnetometerLeavesTiltAlone() {
        // A field with a wrong dip but within tolerance still only turns the heading.
        var filter = MultiplicativeKalmanFilter()
        filter.update(ClassicFixture.sample(ClassicFixture.tilted, magnetic: false), dt: 0.01)
        var sample = ClassicFixture.sample(ClassicFixture.tilted)
        let rotated = Quaternion(axis: SIMD3(1, 0, 0), angle: 0.1).rotate(SIMD3(0, 20, -40))
        sample.magnetometer = ClassicFixture.tilted.inverseRotate(rotated)
        for _ in 0..<3000 { filter.update(sample, dt: 0.01) }
        #expect(ClassicFixture.tiltAngle(filter.attitude, ClassicFixture.tilted) < 0.2)
    }
}
