@testable import PoiseTuning
import Testing

/// `--save` compares the tuned gains' check step with the starting gains' and refuses worse.
@Suite struct TuningRegressionTests {
    /// A 10° step that reaches 0 at `settle` s with `overshoot` of it beyond, sampled at 1 kHz.
    static func step(settlingAt settle: Double?, overshoot: Double = 0) -> StepResponse {
        let samples = (0..<3000).map { i -> Double in
            let t = Double(i) / 1000
            guard let settle else { return 10 * (1 - 0.5 * min(1, t)) }
            if t >= settle { return 0 }
            return t < settle / 2 ? 10 * (1 - 2 * t / settle) : -10 * overshoot * (1 - abs(4 * t / settle - 3))
        }
        return StepResponse(samples: samples, dt: 0.001, start: 10, target: 0)
    }

    static func report(before: StepResponse, after: StepResponse?) -> TuningReport {
        TuningReport(rig: "balancing_robot", simulated: true, rule: "", loops: [], values: [:], experimentSeconds: 1, totalSeconds: 1,
                     before: [StepCheck(axis: "pitch", response: before)],
                     after: [StepCheck(axis: "pitch", response: after, problem: after == nil ? "failed safe" : nil)])
    }

    @Test func slowerSettlingIsARegression() {
        let r = Self.report(before: Self.step(settlingAt: 0.48), after: Self.step(settlingAt: 1.18))
        #expect(r.regressions.count == 1)
        #expect(r.regressions.first?.contains("pitch settles in") == true, "\(r.regressions)")
    }

    @Test func moreOvershootIsARegression() {
        let r = Self.report(before: Self.step(settlingAt: 0.5, overshoot: 0.02), after: Self.step(settlingAt: 0.5, overshoot: 0.3))
        #expect(r.regressions.contains { $0.contains("overshoots") }, "\(r.regressions)")
    }

    @Test func neverSettlingOrFailingIsARegression() {
        #expect(!Self.report(before: Self.step(settlingAt: 0.5), after: Self.step(settlingAt: nil)).regressions.isEmpty)
        #expect(!Self.report(before: Self.step(settlingAt: 0.5), after: nil).regressions.isEmpty)
    }

    /// Sluggish starting gains overshoot nothing; a tuned step within the rules' 20 % is no regression.
    @Test func anOvershootWithinTwentyPercentIsNot() {
        #expect(Self.report(before: Self.step(settlingAt: 2, overshoot: 0), after: Self.step(settlingAt: 0.5, overshoot: 0.11)).regressions.isEmpty)
    }

    @Test func asGoodOrBetterIsNot() {
        #expect(Self.report(before: Self.step(settlingAt: 0.5), after: Self.step(settlingAt: 0.3)).regressions.isEmpty)
        #expect(Self.report(before: Self.step(settlingAt: 0.5), after: Self.step(settlingAt: 0.55)).regressions.isEmpty)
    }
}
