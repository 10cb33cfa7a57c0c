import Testing
import PropertyBased
import PoiseFusion
import PoiseMath

/// Whatever arrives, every classic filter keeps a finite unit attitude and counts the junk.
@Suite struct ClassicFilterRobustnessTests {
    /// One step of a hostile stream: valid samples interleaved with every kind of garbage.
    static func hostileStep(_ random: inout FixtureRandom) -> (sample: InertialSample, dt: Float, garbage: Bool) {
        let valid = ClassicFixture.sample(
            Quaternion(axis: SIMD3(0.6, 0, 0.8), angle: random.unit() * 6),
            rate: SIMD3(random.normal(), random.normal(), random.normal()))
        let bad: [Float] = [.nan, .infinity, -.infinity, 1e30, -1e30, 0, .greatestFiniteMagnitude,
                            .leastNonzeroMagnitude]
        func pick() -> Float { bad[Int(random.next() % UInt64(bad.count))] }
        var sample = valid
        var dt: Float = 0.01
        switch random.next() % 10 {
        case 0: sample.accelerometer = SIMD3(pick(), pick(), pick())
        case 1: sample.gyroscope = SIMD3(random.unit() < 0.5 ? .nan : .infinity, 0, pick())
        case 7:
            // Absurd but finite rates are integrated, not rejected: the attitude must survive.
            sample.gyroscope = SIMD3(1e30, -1e20, pick().isFinite ? 3e9 : 0)
            return (sample, dt, false)
        case 2: sample.magnetometer = SIMD3(pick(), pick(), 1e6)
        case 3: sample.accelerometer = .zero
        case 4: dt = [0, -0.01, .nan, .infinity, 1e6, -.infinity][Int(random.next() % 6)]
        case 5: sample.magnetometer = SIMD3(0, 0, 0)
        default: return (valid, dt, false)
        }
        return (sample, dt, true)
    }

    static func check<F: AttitudeFilter>(_ filter: inout F, seed: Int) {
        var random = FixtureRandom(state: UInt64(truncatingIfNeeded: seed))
        var garbageCount: UInt32 = 0
        for _ in 0..<400 {
            let (sample, dt, garbage) = hostileStep(&random)
            let before = filter.status.rejectedSamples
            filter.update(sample, dt: dt)
            let q = filter.attitude.components
            #expect((q * 0) == SIMD4<Float>(repeating: 0), "attitude not finite: \(q)")
            #expect(abs((q * q).sum().squareRoot() - 1) < 1e-4, "attitude not unit: \(q)")
            if garbage {
                garbageCount += 1
                #expect(filter.status.rejectedSamples == before + 1)
            }
        }
        #expect(filter.status.rejectedSamples >= garbageCount)
        let b = filter.status.gyroscopeBias
        #expect((b * 0) == SIMD3<Float>(repeating: 0))
    }

    @Test func complementary() async {
        await propertyCheck(count: 40, input: Gen.int(in: 0...Int.max)) { seed in
            var f = ComplementaryFilter(); Self.check(&f, seed: seed)
            var g = ComplementaryFilter(settings: .init(timeConstant: 0)); Self.check(&g, seed: seed)
        }
    }

    @Test func mahony() async {
        await propertyCheck(count: 40, input: Gen.int(in: 0...Int.max)) { seed in
            var f = MahonyFilter(); Self.check(&f, seed: seed)
        }
    }

    @Test func madgwick() async {
        await propertyCheck(count: 40, input: Gen.int(in: 0...Int.max)) { seed in
            var f = MadgwickFilter(); Self.check(&f, seed: seed)
        }
    }

    @Test func multiplicativeKalman() async {
        await propertyCheck(count: 40, input: Gen.int(in: 0...Int.max)) { seed in
            var f = MultiplicativeKalmanFilter(); Self.check(&f, seed: seed)
        }
    }
}
