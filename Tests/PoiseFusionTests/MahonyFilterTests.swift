import Testing
import PoiseFusion
import PoiseMath

@Suite struct MahonyFilterTests {
    @Test func defaultsAreBroadsTuning() {
        #expect(MahonyFilter.Settings.default.kp == 0.74)
        #expect(MahonyFilter.Settings.default.ki == 0.0012)
    }

    @Test func integralTermEstimatesTheGyroscopeBias() {
        let bias = SIMD3<Float>(0.01, -0.02, 0.015)
        var filter = MahonyFilter(settings: .init(kp: 1, ki: 0.1))
        for _ in 0..<20000 {
            var sample = ClassicFixture.sample(ClassicFixture.tilted)
            sample.gyroscope += bias
            filter.update(sample, dt: 0.01)
        }
        let error = filter.status.gyroscopeBias - bias
        #expect(dot(error, error).squareRoot() < 1e-3, "bias \(filter.status.gyroscopeBias)")
        #expect(ClassicFixture.angle(filter.attitude, ClassicFixture.tilted) < 0.5)
    }
}
