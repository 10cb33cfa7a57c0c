import Testing
import PoiseFusion

@Suite struct ScalarSmootherTests {
    @Test func convergesToAConstant() {
        var smoother = ScalarSmoother(settings: .init(processNoise: 1e-4, measurementNoise: 0.1))
        var random = FixtureRandom(state: 9)
        for _ in 0..<2000 { smoother.update(2 + 0.3 * random.normal(), dt: 0.01) }
        #expect(abs(smoother.value - 2) < 0.05)
        #expect(smoother.variance < 0.01)
    }

    @Test func angularStaysNearTheWrap() {
        var smoother = ScalarSmoother(settings: .init(processNoise: 0.01, measurementNoise: 0.01, angular: true))
        for i in 0..<1000 {
            // Alternating just either side of ±π: the estimate must stay near ±π, not drift to 0.
            let out = smoother.update(i % 2 == 0 ? 3.1 : -3.1, dt: 0.01)
            #expect(abs(out) > 3.0, "estimate \(out) fell away from the wrap")
            #expect(out > -.pi && out <= .pi)
        }
    }

    @Test func angularTracksACrossingRamp() {
        var smoother = ScalarSmoother(settings: .init(processNoise: 1, measurementNoise: 1e-4, angular: true))
        var truth: Float = 3.0
        for _ in 0..<200 {
            truth = ScalarSmoother.wrapped(truth + 0.01)
            let out = smoother.update(truth, dt: 0.01)
            #expect(abs(ScalarSmoother.wrapped(out - truth)) < 0.02)
        }
    }

    @Test func linearModeDoesNotWrap() {
        var smoother = ScalarSmoother()
        smoother.update(10, dt: 0.01)
        #expect(smoother.update(10, dt: 0.01) == 10)
    }

    @Test func ignoresGarbage() {
        var smoother = ScalarSmoother(settings: .init(angular: true))
        smoother.update(1, dt: 0.01)
        smoother.update(.nan, dt: 0.01)
        smoother.update(.infinity, dt: .nan)
        smoother.update(1, dt: -1)
        #expect(smoother.value.isFinite && abs(smoother.value - 1) < 1e-3)
    }

    @Test func wrapping() {
        #expect(ScalarSmoother.wrapped(.pi) == .pi)
        #expect(abs(ScalarSmoother.wrapped(3 * .pi / 2) + .pi / 2) < 1e-5)
        #expect(abs(ScalarSmoother.wrapped(-7 * .pi / 2) - .pi / 2) < 1e-4)
        #expect(ScalarSmoother.wrapped(.nan) == 0)
    }
}
