import Testing
@testable import PoisePlot

@Suite struct AxisTicksTests {
    static func isOneTwoFive(_ step: Double) -> Bool {
        var m = step
        while m >= 10 { m /= 10 }
        while m < 1 { m *= 10 }
        return [1.0, 2, 5, 10].contains { abs(m - $0) < 1e-9 }
    }

    @Test func documentedExample() {
        let ticks = AxisTicks(covering: -0.37...9.2, targetCount: 6)
        #expect(ticks.step == 2)
        #expect(ticks.lower == -2)
        #expect(ticks.upper == 10)
        #expect(ticks.values == [-2, 0, 2, 4, 6, 8, 10])
    }

    /// Property: for random ranges over many magnitudes the ticks cover the range, use a
    /// 1-2-5 step, are evenly spaced, and their count is near the target.
    @Test func ticksCoverTheRangeWithOneTwoFiveSteps() {
        var state: UInt64 = 12345
        func uniform() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) * 0x1p-53
        }
        for _ in 0..<5000 {
            var scale = 1.0
            let exponent = Int(uniform() * 24) - 12
            for _ in 0..<abs(exponent) { scale = exponent < 0 ? scale / 10 : scale * 10 }
            let a = (uniform() - 0.5) * 2 * scale, b = (uniform() - 0.5) * 2 * scale
            let range = Swift.min(a, b)...Swift.max(a, b)
            let target = 2 + Int(uniform() * 9)
            let ticks = AxisTicks(covering: range, targetCount: target)
            #expect(ticks.lower <= range.lowerBound && ticks.upper >= range.upperBound, "\(range) \(ticks)")
            #expect(Self.isOneTwoFive(ticks.step), "\(ticks.step)")
            #expect(ticks.values.first == ticks.lower && ticks.values.last == ticks.upper)
            let intervals = ticks.values.count - 1
            #expect(intervals >= 1 && intervals <= 3 * target + 2, "\(range) target \(target) → \(intervals)")
            for (p, q) in zip(ticks.values, ticks.values.dropFirst()) {
                #expect(abs((q - p) - ticks.step) <= 1e-9 * Swift.max(ticks.step, abs(p)))
            }
        }
    }

    @Test func degenerateAndNonFiniteRanges() {
        let zero = AxisTicks(covering: 0...0)
        #expect(zero.lower <= -1 && zero.upper >= 1)
        let constant = AxisTicks(covering: 9.81...9.81)
        #expect(constant.lower < 9.81 && constant.upper > 9.81)
        let infinite = AxisTicks(covering: -Double.infinity...Double.infinity)
        #expect(infinite.lower == 0 && infinite.upper == 1)
        let huge = AxisTicks(covering: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
        #expect(huge.values.allSatisfy { $0.isFinite })
        #expect(AxisTicks.niceStep(for: 0.3) == 0.5)
        #expect(AxisTicks.niceStep(for: 1) == 1)
        #expect(AxisTicks.niceStep(for: 101) == 200)
    }

    @Test func labelsUseTheStepsDecimals() {
        let ticks = AxisTicks(covering: -0.5...0.5, targetCount: 4)
        #expect(ticks.step == 0.2 || ticks.step == 0.5)
        let fine = AxisTicks(covering: 0...0.001, targetCount: 5)
        #expect(fine.label(for: fine.values[1]) == "0.0002")
        #expect(AxisTicks(covering: 0...1000, targetCount: 5).label(for: 600) == "600")
        #expect(ticks.label(for: -0.0) == "0.0")  // never "-0.0"
        #expect(SVGFormat.fixed(-0.25, decimals: 2) == "-0.25")
        #expect(SVGFormat.fixed(3.14159, decimals: 0) == "3")
        #expect(SVGFormat.coordinate(-0.04) == "0")
        #expect(SVGFormat.coordinate(-0.36) == "-0.4")
        #expect(SVGFormat.coordinate(12.5) == "12.5")
    }
}
