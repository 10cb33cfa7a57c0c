import Foundation
import PoiseFusion
import PoiseSpectrum
import PropertyBased
import Testing

/// A deterministic noise source (xorshift), uniform in −1…1.
struct Noise {
    var state: UInt64
    mutating func next() -> Double {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Double(state >> 11) / Double(1 << 52) - 1
    }
}

@Suite("Spectrum")
struct SpectrumTests {
    /// Tones at `tones` (Hz, amplitude) plus white noise, `seconds` long at `fs`.
    static func signal(_ tones: [(Double, Double)], fs: Double, seconds: Double, noise: Double = 0.05, seed: UInt64 = 7) -> [Double] {
        var random = Noise(state: seed)
        return (0..<Int(fs * seconds)).map { i in
            let t = Double(i) / fs
            return tones.reduce(noise * random.next()) { $0 + $1.1 * sin(2 * .pi * $1.0 * t) }
        }
    }

    @Test func fftOfASineAtABinIsAllInThatBin() {
        let n = 64
        let fft = FourierTransform(count: n)
        let x = (0..<n).map { cos(2 * .pi * 5 * Double($0) / Double(n)) }
        let p = fft.power(of: x)
        #expect(abs(p[5] - Double(n * n) / 4) < 1e-6)
        #expect(p.enumerated().filter { $0.offset != 5 }.allSatisfy { $0.element < 1e-12 })
    }

    @Test func welchOfWhiteNoiseIsItsVarianceOverHalfTheRate() {
        let fs = 1000.0
        let x = Self.signal([], fs: fs, seconds: 30, noise: 1)
        let welch = WelchEstimator(sampleRate: fs, segmentLength: 512)
        let density = welch.density(x)
        let mean = density[10..<250].reduce(0, +) / 240
        // Uniform in −1…1: variance 1/3, spread over fs/2.
        #expect(abs(mean / ((1.0 / 3) / (fs / 2)) - 1) < 0.05)
    }

    @Test func peaksOfKnownTonesAreFoundWithinOneBin() async {
        await propertyCheck(count: 20, input: Gen.double(in: 15...120), Gen.double(in: 150...450), Gen.int(in: 0...2)) { low, high, rateIndex in
            let fs = [500.0, 1000, 1000][rateIndex]
            let highTone = min(high, 0.45 * fs)
            let gx = Self.signal([(low, 0.3), (highTone, 0.1)], fs: fs, seconds: 12)
            let gy = Self.signal([(highTone, 0.2)], fs: fs, seconds: 12, seed: 11)
            let analysis = SpectrumAnalysis(channels: [SpectrumChannel(name: "gx", unit: "rad/s", values: gx),
                                                       SpectrumChannel(name: "gy", unit: "rad/s", values: gy)], sampleRate: fs)
            let bin = analysis.estimator.resolution
            #expect(bin <= 2 && bin >= 0.9)
            let lowPeak = analysis.peaks.first { abs($0.frequency - low) <= bin }
            let highPeak = analysis.peaks.first { abs($0.frequency - highTone) <= bin }
            #expect(lowPeak != nil, "no peak near \(low) Hz in \(analysis.peaks.map(\.frequency))")
            #expect(highPeak?.axes.sorted() == ["gx", "gy"], "\(highTone) Hz: \(String(describing: highPeak))")
            #expect(lowPeak?.axes == ["gx"])
            // Noise alone makes no peak this prominent.
            #expect(analysis.peaks.count <= 4, "\(analysis.peaks)")
        }
    }

    @Test func resolutionOptionPicksTheSegment() {
        #expect(WelchEstimator.segmentLength(sampleRate: 1000, resolution: 2, sampleCount: 100_000) == 512)
        #expect(WelchEstimator.segmentLength(sampleRate: 1000, resolution: 1, sampleCount: 100_000) == 1024)
        #expect(WelchEstimator.segmentLength(sampleRate: 1000, resolution: 0.5, sampleCount: 100_000) == 2048)
        // A short recording gets shorter segments (at least 4 half-overlapping ones).
        #expect(WelchEstimator.segmentLength(sampleRate: 1000, resolution: 1, sampleCount: 1000) == 256)
    }

    /// A motor line whose frequency follows √throttle lands in each throttle bin where the map says.
    @Test func throttleSlicesFollowTheMotorLine() throws {
        let fs = 1000.0, seconds = 60.0
        let count = Int(fs * seconds)
        var random = Noise(state: 3)
        var phase = 0.0
        var gx: [Double] = [], throttle: [Double] = []
        for i in 0..<count {
            let u = 0.2 + 0.6 * Double(i) / Double(count)     // a slow ramp 0.2 → 0.8
            let f = 100 * (u / 0.4).squareRoot()
            phase += 2 * .pi * f / fs
            gx.append(0.2 * sin(phase) + 0.02 * random.next())
            throttle.append(u)
        }
        let analysis = SpectrumAnalysis(channels: [SpectrumChannel(name: "gx", unit: "rad/s", values: gx)], sampleRate: fs,
                                        throttle: throttle)
        let map = try #require(analysis.throttle)
        #expect(map.counts.reduce(0, +) == analysis.segmentCount)
        var populated = 0
        for (b, row) in map.decibels.enumerated() where map.counts[b] > 0 {
            populated += 1
            let centre = map.throttles[b] + 0.025
            let expected = 100 * (centre / 0.4).squareRoot()
            let k = row.indices.max { row[$0] < row[$1] }!
            // The bin is 0.05 wide: the line moves ±3 Hz across it, plus one frequency bin.
            #expect(abs(analysis.frequencies[k] - expected) <= 3 + analysis.estimator.resolution,
                    "throttle \(centre): line at \(analysis.frequencies[k]) Hz, map says \(expected)")
        }
        #expect(populated == 12)   // 0.2 … 0.8 in bins of 0.05
        #expect(map.decibels[0].allSatisfy { $0.isNaN })
    }

    @Test func jsonCarriesPeaksSpectraAndPhaseDelays() throws {
        let fs = 1000.0
        let gx = Self.signal([(80, 0.3)], fs: fs, seconds: 8)
        var filters = GyroFilterSettings()
        filters.lowPassCutoff = 80
        filters.notches[0].mode = .static
        filters.notches[0].centerFrequency = 80
        let analysis = SpectrumAnalysis(channels: [SpectrumChannel(name: "gx", unit: "rad/s", values: gx)], sampleRate: fs,
                                        filters: filters, filterRate: fs)
        let data = try JSONEncoder().encode(SpectrumJSON(analysis))
        let decoded = try JSONDecoder().decode(SpectrumJSON.self, from: data)
        #expect(decoded == SpectrumJSON(analysis))
        #expect(abs(try #require(decoded.peaks.first).frequencyHz - 80) <= decoded.resolutionHz)
        #expect(decoded.channels.first?.decibels.count == decoded.frequenciesHz.count)
        let delays = try #require(decoded.filters).phaseDelay
        #expect(delays.map(\.frequencyHz) == [10, 30])
        // Low-pass and notch both lag: more degrees at 30 Hz than at 10.
        #expect(delays[0].phaseDegrees < 0 && delays[1].phaseDegrees < delays[0].phaseDegrees)
        #expect(delays.allSatisfy { $0.delayMilliseconds > 0 })
        let svg = analysis.svg(title: "test")
        #expect(svg.contains("frequency (Hz)") && svg.contains("PSD (dB re 1 (rad/s)²/Hz)") && svg.contains("gain (dB)"))
    }
}
