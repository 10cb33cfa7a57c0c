import Foundation
import Testing
import PropertyBased
import PoiseFusion

/// The gyroscope's biquads: gains and phases where the mathematics says, checked against the
/// sections' own response and against a tone run through them.
@Suite("Gyroscope filters")
struct GyroFilterTests {
    /// Steady-state amplitude of `section` driven by a sine at `frequency` (after `settle` s).
    static func measuredGain(_ section: BiquadCoefficients, frequency: Double, sampleRate: Double) -> Double {
        var biquad = Biquad3(section)
        let n = Int(sampleRate * 2)
        var peak: Float = 0
        for i in 0..<n {
            let t = Double(i) / sampleRate
            let x = Float(sin(2 * .pi * frequency * t))
            let y = biquad.step(SIMD3(repeating: x))
            if i > n / 2 { peak = max(peak, abs(y.x)) }
        }
        return Double(peak)
    }

    @Test func notchIsAsDeepAsAskedAtItsCentre() async {
        let rates = [250.0, 500, 1000, 2000, 4000]
        await propertyCheck(count: 100, input: Gen.int(in: 0...4), Gen.double(in: 0.02...0.4), Gen.double(in: 0.1...1),
                            Gen.double(in: 20...60)) { rateIndex, fraction, widthRatio, depth in
            let fs = rates[rateIndex]
            let center = fraction * fs
            let notch = BiquadCoefficients.notch(center: Float(center), bandwidth: Float(center * widthRatio),
                                                 attenuation: Float(depth), sampleRate: Float(fs))
            let atCentre = FilterResponse.of([notch], at: center, sampleRate: fs)
            #expect(abs(atCentre.decibels + depth) < 0.5, "\(center) Hz at \(fs) Hz: \(atCentre.decibels) dB, asked −\(depth)")
            #expect(atCentre.decibels <= -19.5)
            // Unity far away: DC exactly, and a decade below within 1 dB for a narrow notch.
            #expect(abs(notch.response(at: 0, sampleRate: fs).gain - 1) < 1e-5)
            if widthRatio <= 0.5 {
                #expect(abs(FilterResponse.of([notch], at: center / 10, sampleRate: fs).decibels) < 1)
            }
        }
    }

    /// The width asked is the −3 dB width of a deep notch wherever its centre is, up to Nyquist
    /// (a rotor at 0.45–0.5 of the loop rate): measured between the response's −3 dB points.
    @Test func notchIsAsWideAsAskedUpToNyquist() async {
        await propertyCheck(count: 60, input: Gen.double(in: 0.05...0.49), Gen.double(in: 0.02...0.2)) { fraction, widthFraction in
            let fs = 400.0, center = fraction * fs, width = widthFraction * fs
            let notch = BiquadCoefficients.notch(center: Float(center), bandwidth: Float(width), attenuation: 80, sampleRate: Float(fs))
            let grid = stride(from: 0.0, through: fs / 2, by: 0.01)
            let below = grid.filter { notch.response(at: $0, sampleRate: fs).gain < 0.5.squareRoot() }
            guard let low = below.first, let high = below.last else { Issue.record("no notch at \(center) Hz"); return }
            // A notch whose lower half reaches past Nyquist shows only part of its width.
            if high < fs / 2 - 0.02 && low > 0.02 {
                #expect(abs((high - low) - width) < 0.02 * width + 0.05, "\(center) Hz: \(high - low) Hz wide, asked \(width)")
            }
        }
    }

    /// A harmonic above half the sample rate is notched at its alias; one folding deep into the
    /// loops' band (below a quarter of the centre) is left alone.
    @Test func harmonicsAboveNyquistAreNotchedAtTheirAlias() {
        #expect(GyroNotchSettings.folded(344, sampleRate: 400) == 56)
        #expect(GyroNotchSettings.folded(516, sampleRate: 400) == 116)
        #expect(GyroNotchSettings.folded(120, sampleRate: 400) == 120)
        var notch = GyroNotchSettings()
        notch.mode = .static
        notch.centerFrequency = 172
        notch.bandwidth = 86
        notch.harmonics = 3
        for (harmonic, alias) in [(2, 56.0), (3, 116.0)] {
            let section = notch.section(harmonic: harmonic, center: 172, sampleRate: 400)
            #expect(FilterResponse.of([section], at: alias, sampleRate: 400).decibels < -39, "harmonic \(harmonic) at \(alias) Hz")
        }
        // 2 × 195 Hz = 390 Hz folds to 10 Hz: left alone.
        #expect(notch.section(harmonic: 2, center: 195, sampleRate: 400) == .passThrough)
    }

    @Test func lowPassesAreThreeDecibelsDownAtTheirCutoff() async {
        await propertyCheck(count: 100, input: Gen.double(in: 200...4000), Gen.double(in: 0.01...0.4)) { fs, fraction in
            let cutoff = fraction * fs
            for section in [BiquadCoefficients.firstOrderLowPass(cutoff: Float(cutoff), sampleRate: Float(fs)),
                            .secondOrderLowPass(cutoff: Float(cutoff), sampleRate: Float(fs))] {
                let r = section.response(at: cutoff, sampleRate: fs)
                #expect(abs(20 * log10(r.gain) + 3.0103) < 0.05, "cut-off \(cutoff) Hz at \(fs) Hz: \(20 * log10(r.gain)) dB")
                #expect(abs(section.response(at: 0, sampleRate: fs).gain - 1) < 1e-4)   // Float coefficients
            }
            // Butterworth: −90° at the cut-off; first order: −45° (the bilinear warp keeps both exact there).
            let second = BiquadCoefficients.secondOrderLowPass(cutoff: Float(cutoff), sampleRate: Float(fs))
            #expect(abs(second.response(at: cutoff, sampleRate: fs).phase * 180 / .pi + 90) < 0.5)
            let first = BiquadCoefficients.firstOrderLowPass(cutoff: Float(cutoff), sampleRate: Float(fs))
            #expect(abs(first.response(at: cutoff, sampleRate: fs).phase * 180 / .pi + 45) < 0.5)
        }
    }

    @Test func runningATonePassesWhatTheResponseSays() {
        let fs = 1000.0
        let notch = BiquadCoefficients.notch(center: 120, bandwidth: 60, attenuation: 30, sampleRate: Float(fs))
        for f in [10.0, 60, 120, 200] {
            let expected = notch.response(at: f, sampleRate: fs).gain
            let measured = Self.measuredGain(notch, frequency: f, sampleRate: fs)
            #expect(abs(measured - expected) < 0.01 + 0.02 * expected, "\(f) Hz: \(measured) vs \(expected)")
        }
        #expect(20 * log10(Self.measuredGain(notch, frequency: 120, sampleRate: fs)) < -29)
    }

    @Test func throttleNotchFollowsTheSquareRootOfThrottle() {
        var notch = GyroNotchSettings()
        notch.mode = .throttle
        notch.centerFrequency = 100
        notch.referenceThrottle = 0.25
        notch.minimumFrequency = 60
        #expect(notch.center(throttle: 0.25) == 100)
        #expect(abs(notch.center(throttle: 1) - 200) < 1e-3)
        #expect(notch.center(throttle: 0.04) == 60)      // 40 Hz by the map, held at the minimum
        #expect(notch.center(throttle: .nan) == 60)
        notch.minimumFrequency = 0
        #expect(notch.center(throttle: 0.1) == 100)      // 0: never below the centre
        notch.mode = .static
        #expect(notch.center(throttle: 1) == 100)
    }

    @Test func bankWithNothingOnReturnsItsInputBitForBit() {
        var bank = GyroFilterBank(settings: .default, sampleRate: 1000)
        #expect(!bank.isActive)
        let x = SIMD3<Float>(0.1234567, -3.3e-7, 12.5)
        #expect(bank.apply(x, throttle: 0.5) == x)
    }

    @Test func throttleNotchRemovesATrackedToneAndHarmonic() {
        var settings = GyroFilterSettings()
        settings.notches[0].mode = .throttle
        settings.notches[0].centerFrequency = 80
        settings.notches[0].bandwidth = 40
        settings.notches[0].attenuation = 40
        settings.notches[0].harmonics = 2
        settings.notches[0].referenceThrottle = 0.4
        let fs: Float = 1000
        var bank = GyroFilterBank(settings: settings, sampleRate: fs)
        // At throttle 0.9 the motor turns at 80·√(0.9/0.4) = 120 Hz, its second harmonic at 240 Hz.
        let throttle: Float = 0.9
        var peak: Float = 0
        for i in 0..<2000 {
            let t = Float(i) / fs
            let tone = sin(2 * .pi * 120 * t) + 0.5 * sin(2 * .pi * 240 * t)
            let y = bank.apply(SIMD3(tone, -tone, 2 * tone), throttle: throttle)
            if i > 1000 { peak = max(peak, abs(y.x)) }
        }
        #expect(20 * log10(peak / 1.5) < -20, "peak left \(peak)")
    }

    @Test func aNonFiniteSampleDoesNotPoisonTheFilters() {
        var settings = GyroFilterSettings()
        settings.lowPassCutoff = 50
        settings.notches[0].mode = .throttle
        var bank = GyroFilterBank(settings: settings, sampleRate: 500)
        for _ in 0..<10 { _ = bank.apply(SIMD3(0.1, 0.2, 0.3), throttle: 0.4) }
        _ = bank.apply(SIMD3(.nan, .infinity, 0), throttle: .nan)
        var y = SIMD3<Float>.zero
        for _ in 0..<10 { y = bank.apply(SIMD3(0.1, 0.2, 0.3), throttle: 0.4) }
        #expect(abs(y.x - 0.1) < 1e-5 && abs(y.z - 0.3) < 1e-5, "\(y)")
    }
}
