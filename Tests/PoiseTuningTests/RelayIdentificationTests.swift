import Foundation
import PropertyBased
import Testing
@testable import PoiseTuning

/// The relay point, the models through it and the rules' margins, on signals whose answer is
/// known.
struct RelayIdentificationTests {
    /// A relay's square wave in and a sinusoid out, `lag` behind it and `gain` × the square
    /// wave's fundamental (4d/π): the point is read back from the first harmonics.
    @Test func thePointOfASquareWaveAndASinusoidIsTheirHarmonicsRatio() async {
        await propertyCheck(count: 50, input: Gen.double(in: 0.02...0.5), Gen.double(in: 0.05...2.5), Gen.double(in: 0.001...10)) { period, lag, gain in
            let dt = 0.001, d = 0.3
            let w = 2 * Double.pi / period
            let n = Int(8 * period / dt) + 17
            let u = (0..<n).map { i in sin(w * Double(i) * dt) >= 0 ? d : -d }
            let y = (0..<n).map { i in gain * 4 * d / .pi * sin(w * Double(i) * dt - lag) + 0.001 * Double(i) * dt }
            let point = RelayAnalysis.point(input: u, output: y, dt: dt)
            #expect(point != nil)
            guard let point else { return }
            #expect(abs(point.period - period) < 0.01 * period + dt)
            #expect(abs(point.magnitude - gain) < 0.03 * gain)
            // The sampled square wave's edges fall up to a sample late: half a sample of phase.
            #expect(abs(point.phase + lag) < 0.02 + Double.pi * dt / period)
        }
    }

    /// A vibrating frame: a tone of a few ticks' period, larger than the limit cycle, on the
    /// output. The period comes from the relay's switching and the point from the fundamental,
    /// so the tone changes neither; the hysteresis is sized from the tone alone.
    @Test func vibrationOnTheOutputLeavesThePointAndSizesTheHysteresis() {
        let dt = 0.0025, d = 0.05, period = 0.1, lag = 0.6, gain = 3.0
        let w = 2 * Double.pi / period
        let tone = { (i: Int) in 2.0 * sin(2 * .pi * 172 * Double(i) * dt) }
        let u = (0..<1200).map { i in sin(w * Double(i) * dt) >= 0 ? d : -d }
        let y = (0..<1200).map { i in gain * 4 * d / .pi * sin(w * Double(i) * dt - lag) + tone(i) }
        let point = RelayAnalysis.point(input: u, output: y, dt: dt)
        #expect(point != nil)
        if let point {
            #expect(abs(point.period - period) < 0.02 * period)
            #expect(abs(point.magnitude - gain) < 0.05 * gain)
        }
        let quiet = (0..<200).map { i in SIMD3<Float>(Float(tone(i)), Float(tone(i)) / 2, 0) + SIMD3(0.01 * Float(i) * Float(dt), 0, 0) }
        let h = QuadExperiment.hysteresis(noise: quiet)
        #expect(abs(h.x - 3) < 0.1 && abs(h.y - 1.5) < 0.05 && h.z == 0, "\(h)")
    }

    /// A relay that also flips with a vibration of a third of its cycle's period: the
    /// autocorrelation's first lobe ends in a wobble about zero, which is not the next lobe
    /// (read as one, it left the tuner with "no period" on a seed of the simulated quad).
    @Test(arguments: [0.4, 0.45, 0.5])
    func aRelayChatteringOnAVibrationStillShowsItsCycle(vibration: Double) {
        let dt = 0.0025, ticks = 30.0
        let u = (0..<1200).map { i in
            (sin(2 * .pi * (Double(i) + 0.5) / ticks) >= 0 ? 1.0 : -1.0) + vibration * sin(2 * .pi * Double(i) / 10)
        }
        let period = RelayAnalysis.period(RelayAnalysis.detrended(u), dt: dt)
        #expect(period.map { abs($0 / dt - ticks) < 0.5 } == true, "\(period.map { $0 / dt } ?? .nan) ticks")
    }

    @Test func aModelThroughAPointAnswersWithThatPoint() async {
        await propertyCheck(count: 50, input: Gen.double(in: 0.02...0.5), Gen.double(in: 0.01...100), Gen.double(in: -3.1...3.1)) { period, magnitude, phase in
            let point = RelayPoint(period: period, magnitude: magnitude, phase: phase, outputAmplitude: 1, inputAmplitude: 1, cycles: 4)
            for kind in [LoopModel.Kind.integratingWithDelay, .doubleIntegratingWithDelay] {
                let model = LoopModel(kind: kind, through: point)
                let r = model.response(point.frequency)
                #expect(model.delay >= 0 && model.delay < period)
                #expect(abs(r.magnitude - magnitude) < 1e-9 * magnitude)
                let difference = remainder(r.phase - phase, 2 * .pi)
                #expect(abs(difference) < 1e-9)
            }
        }
    }

    /// SIMC's P on K e^(−θs)/s with τc = 1.5θ: gain margin 2.5π/2, phase margin 90° − 1/2.5 rad.
    @Test func theAngleRuleHasItsStatedMargins() {
        let model = LoopModel(kind: .integratingWithDelay, gain: 0.8, delay: 0.025)
        let margins = LoopMargins(model: model, controller: TuningRule.angleLoop(model), rateHz: 1000)
        #expect(margins != nil)
        #expect(abs((margins?.gainMargin ?? 0) - 2.5 * .pi / 2) < 0.02)
        #expect(abs((margins?.phaseMargin ?? 0) - (90 - 180 / .pi / 2.5)) < 0.2)
    }

    /// The rate rule moves the measured point onto the unit circle at −180° + 45°.
    @Test func theRateRulePutsThePointAtItsPhaseMargin() async {
        await propertyCheck(count: 50, input: Gen.double(in: 0.02...0.2), Gen.double(in: 0.05...5), Gen.double(in: -3.1 ... -2.7)) { period, magnitude, phase in
            let point = RelayPoint(period: period, magnitude: magnitude, phase: phase, outputAmplitude: 1, inputAmplitude: 1, cycles: 4)
            let gains = TuningRule.rateLoop(point, derivativeCutoffHz: 20)
            let c = gains.response(point.frequency)
            let loopGain = magnitude * (c.re * c.re + c.im * c.im).squareRoot()
            let loopPhase = phase + atan2(c.im, c.re)
            #expect(abs(loopGain - 1) < 1e-6)
            #expect(abs(remainder(loopPhase + .pi - TuningRule.ratePhaseMargin * .pi / 180, 2 * .pi)) < 1e-3)
        }
    }

    @Test func aStepIsReadForSettlingAndOvershoot() {
        // 0 → 10 with 15 % overshoot, inside ±1° from 0.3 s.
        let samples = (0..<400).map { i -> Double in
            let t = Double(i) * 0.001
            return t < 0.1 ? 100 * t : (t < 0.2 ? 11.5 : (t < 0.3 ? 9.5 - 5 * (0.3 - t) : 10))
        }
        let step = StepResponse(samples: samples, dt: 0.001, start: 0, target: 10)
        #expect(abs(step.overshoot - 0.15) < 1e-9)
        #expect(step.settlingTime.map { abs($0 - 0.2) < 0.002 } == true)
    }
}
