import PoiseControl
import PropertyBased
import Testing

@Suite struct PIDControllerTests {
    @Test func proportionalIntegralDerivative() {
        var pid = PIDController(settings: PIDSettings(proportionalGain: 2, integralGain: 1, derivativeGain: 0.5,
                                                      outputLimit: 100, integralLimit: 100))
        // Error 1 for 1 s in 0.01 s steps, measurement falling at 1/s through the last step.
        var out: Float = 0
        for _ in 0..<100 { out = pid.update(setpoint: 1, measurement: 0, measuredRate: 0, dt: 0.01) }
        #expect(abs(out - 3) < 1e-3)   // 2·1 + 1·1 s
        out = pid.update(setpoint: 1, measurement: 0, measuredRate: -1, dt: 0.01)
        #expect(abs(out - (2 + 1.01 + 0.5)) < 1e-3)
    }

    @Test func noKickOnSetpointStep() {
        var pid = PIDController(settings: PIDSettings(proportionalGain: 0, derivativeGain: 10, outputLimit: 100))
        _ = pid.update(setpoint: 0, measurement: 0.5, dt: 0.01)
        let out = pid.update(setpoint: 100, measurement: 0.5, dt: 0.01)
        #expect(out == 0)
    }

    @Test func derivativeLowPassAttenuatesNoise() {
        var pid = PIDController(settings: PIDSettings(derivativeGain: 1, derivativeCutoffHz: 5, outputLimit: 100))
        var peak: Float = 0
        for i in 0..<1000 {
            let rate: Float = i % 2 == 0 ? 1 : -1   // 500 Hz noise at 1 kHz
            peak = max(peak, abs(pid.update(setpoint: 0, measurement: 0, measuredRate: rate, dt: 0.001)))
        }
        #expect(peak < 0.1)
    }

    @Test func antiWindupStopsIntegratingIntoTheClamp() {
        var pid = PIDController(settings: PIDSettings(proportionalGain: 1, integralGain: 10, outputLimit: 1, integralLimit: 1))
        for _ in 0..<1000 { _ = pid.update(setpoint: 5, measurement: 0, measuredRate: 0, dt: 0.01) }
        // P alone saturates, so the integrator never wound up: the error reversing acts at once.
        #expect(pid.integral == 0)
        let out = pid.update(setpoint: -1, measurement: 0, measuredRate: 0, dt: 0.01)
        #expect(out < 0)
    }

    @Test func bumplessEnable() {
        var pid = PIDController(settings: PIDSettings(proportionalGain: 1, integralGain: 1, outputLimit: 1, integralLimit: 1))
        pid.enable(holding: 0.4)
        let out = pid.update(setpoint: 0, measurement: 0, measuredRate: 0, dt: 0.01)
        #expect(abs(out - 0.4) < 1e-6)
    }

    @Test func outputAlwaysWithinLimitOrNaN() async {
        await propertyCheck(count: 300, input: Gen.float(in: -1e6...1e6).simd4) { v in
            var pid = PIDController(settings: PIDSettings(proportionalGain: 3, integralGain: 2, derivativeGain: 0.1,
                                                          derivativeCutoffHz: 30, outputLimit: 0.7, integralLimit: 0.3))
            for i in 0..<20 {
                let out = pid.update(setpoint: v.x, measurement: v.y * Float(i % 3), measuredRate: v.z, dt: abs(v.w) * 1e-6)
                #expect(abs(out) <= 0.7 + 1e-6)
            }
        }
    }
}
