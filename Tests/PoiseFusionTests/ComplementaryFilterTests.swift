import Testing
import PoiseFusion
import PoiseMath

/// Behaviour every classic filter shares, on noiseless synthetic data.
@Suite struct ClassicFilterConvergenceTests {
    @Test(arguments: ClassicFilterKind.allCases)
    func startsAtTheMeasuredAttitude(kind: ClassicFilterKind) {
        var filter = kind.make()
        filter.update(ClassicFixture.sample(ClassicFixture.tilted), dt: 0.01)
        #expect(ClassicFixture.angle(filter.attitude, ClassicFixture.tilted) < 0.1)
        for _ in 0..<200 { filter.update(ClassicFixture.sample(ClassicFixture.tilted), dt: 0.01) }
        #expect(ClassicFixture.angle(filter.attitude, ClassicFixture.tilted) < 0.5)
    }

    @Test(arguments: ClassicFilterKind.allCases)
    func convergesFromAWrongStart(kind: ClassicFilterKind) {
        let wrong = Quaternion(axis: SIMD3(0, 1, 0), angle: 0.3) * ClassicFixture.tilted
        var filter = kind.make(startingAt: wrong)
        for _ in 0..<6000 { filter.update(ClassicFixture.sample(ClassicFixture.tilted), dt: 0.01) }
        #expect(ClassicFixture.angle(filter.attitude, ClassicFixture.tilted) < 1)
    }

    @Test(arguments: ClassicFilterKind.allCases, [true, false])
    func tracksAConstantRateRotation(kind: ClassicFilterKind, magnetic: Bool) {
        let rate = SIMD3<Float>(0.3, -0.2, 0.5)
        var truth = ClassicFixture.tilted
        var filter = kind.make()
        var worst: Float = 0
        for step in 0..<2000 {
            filter.update(ClassicFixture.sample(truth, rate: rate, magnetic: magnetic), dt: 0.01)
            let error = magnetic ? ClassicFixture.angle(filter.attitude, truth)
                                 : ClassicFixture.tiltAngle(filter.attitude, truth)
            if step > 100 { worst = max(worst, error) }
            truth = (truth * Quaternion(rotationVector: rate * 0.01)).normalized
        }
        #expect(worst < 1, "worst error \(worst)°")
    }

    @Test(arguments: ClassicFilterKind.allCases)
    func sixAxisHeadingStaysBounded(kind: ClassicFilterKind) {
        var random = FixtureRandom(state: 7)
        var filter = kind.make()
        let still = ClassicFixture.sample(ClassicFixture.tilted, magnetic: false)
        filter.update(still, dt: 0.01)
        let startYaw = ClassicFixture.yaw(filter.attitude)
        for _ in 0..<12000 {
            var noisy = still
            noisy.gyroscope = SIMD3(random.normal(), random.normal(), random.normal()) * 0.005
            filter.update(noisy, dt: 0.01)
        }
        let drift = abs(ScalarSmoother.wrapped(ClassicFixture.yaw(filter.attitude) - startYaw))
        #expect(drift < 0.05, "yaw drifted \(drift) rad in 120 s")
        #expect(ClassicFixture.tiltAngle(filter.attitude, ClassicFixture.tilted) < 1)
    }
}

@Suite struct ComplementaryFilterTests {
    @Test func zeroTimeConstantIsTheMeasuredAttitudeEverySample() {
        var filter = ComplementaryFilter(settings: .init(timeConstant: 0))
        var truth = ClassicFixture.tilted
        let rate = SIMD3<Float>(1, 0, 0)
        filter.update(ClassicFixture.sample(truth), dt: 0.01)
        for _ in 0..<100 {
            truth = (truth * Quaternion(rotationVector: rate * 0.01)).normalized
            // A lying gyroscope must not matter: the attitude is the accel + mag one.
            filter.update(ClassicFixture.sample(truth, rate: -rate), dt: 0.01)
            #expect(ClassicFixture.angle(filter.attitude, truth) < 0.05)
        }
    }

    @Test func sixAxisPullsOnlyTheTilt() {
        var filter = ComplementaryFilter(settings: .init(timeConstant: 0))
        filter.reset(attitude: Quaternion(axis: SIMD3(0, 0, 1), angle: 1))
        filter.update(ClassicFixture.sample(.identity, magnetic: false), dt: 0.01)
        #expect(ClassicFixture.tiltAngle(filter.attitude, .identity) < 0.01)
        #expect(abs(ClassicFixture.yaw(filter.attitude) - 1) < 1e-3)
    }
}
