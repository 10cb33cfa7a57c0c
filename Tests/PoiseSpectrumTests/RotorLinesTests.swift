import Foundation
import PoiseSpectrum
import PropertyBased
import Testing

@Suite("Streaming Welch and rotor lines")
struct RotorLinesTests {
    /// Row by row, the accumulator gives the whole-signal estimator's density to the bit.
    @Test func streamingEqualsTheWholeSignal() async {
        await propertyCheck(count: 20, input: Gen.int(in: 40...3000), Gen.int(in: 0...3)) { count, lengthIndex in
            let n = [16, 32, 64, 128][lengthIndex]
            let x = SpectrumTests.signal([(37, 0.3)], fs: 1000, seconds: Double(count) / 1000, seed: UInt64(count))
            let welch = WelchEstimator(sampleRate: 1000, segmentLength: n)
            var accumulator = WelchAccumulator(estimator: welch, gyroscope: [true])
            for value in x { accumulator.append([value]) }
            #expect(accumulator.density(0) == welch.density(x))
            #expect(accumulator.segments == welch.segmentStarts(count: x.count).count)
        }
    }

    @Test func foldingIsSymmetricAndPeriodic() async {
        await propertyCheck(count: 100, input: Gen.double(in: 0...5000), Gen.double(in: 100...2000)) { f, rate in
            let a = RotorLines.fold(f, at: rate)
            #expect(a >= 0 && a <= rate / 2 + 1e-9)
            #expect(abs(RotorLines.fold(f + rate, at: rate) - a) < 1e-6)
            #expect(abs(RotorLines.fold(rate - f.truncatingRemainder(dividingBy: rate), at: rate) - a) < 1e-6)
        }
    }

    /// A rotor at f₀ with harmonics 2 and 3 sampled at 400 Hz: the two harmonics fold to
    /// 400 − 2f₀ and 3f₀ − 400 (from 176 Hz up the 4th harmonic's alias, 800 − 4f₀, lands on neither);
    /// the fundamental is found within a bin, its harmonics named.
    @Test func theFundamentalIsFoundAmongFoldedHarmonics() async {
        await propertyCheck(count: 15, input: Gen.double(in: 176...190)) { f0 in
            let fs = 400.0
            let gx = SpectrumTests.signal([(f0, 0.3), (2 * f0, 0.15), (3 * f0, 0.1)], fs: fs, seconds: 30)
            let gy = SpectrumTests.signal([(f0, 0.2), (2 * f0, 0.1), (3 * f0, 0.07)], fs: fs, seconds: 30, seed: 9)
            let analysis = SpectrumAnalysis(channels: [SpectrumChannel(name: "gx", unit: "rad/s", values: gx),
                                                       SpectrumChannel(name: "gy", unit: "rad/s", values: gy)], sampleRate: fs)
            guard let rotor = RotorLines.find(in: analysis) else {
                Issue.record("no rotor found at \(f0) Hz in \(analysis.peaks.map(\.frequency))")
                return
            }
            let bin = analysis.estimator.resolution
            #expect(abs(rotor.fundamental - f0) <= bin, "\(rotor.fundamental) for \(f0)")
            #expect(rotor.harmonics == 3)
            let folded = rotor.lines.compactMap { line -> Int? in
                if case .harmonic(let n, _) = line.role, line.folded { return n } else { return nil }
            }
            #expect(Set(folded) == [2, 3], "\(rotor.lines)")
            #expect(rotor.proposal.mode == "static" && abs(rotor.proposal.centerHz - f0) <= bin)
        }
    }
}
