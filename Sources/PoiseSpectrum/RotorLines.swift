#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The rotors' lines among a recording's gyroscope peaks: one fundamental, its harmonics, and
/// where sampling folded them, with the notch that takes them out.
///
/// The rule: every gyroscope peak is tried as the fundamental's alias; each of its unfoldings
/// f = a + k·fs or k·fs − a (up to four times the sample rate) predicts where harmonics 2…4
/// land after folding — at the chip's output rate, then at the recording's rate when the
/// chip runs faster than the loop reads it — and scores the prominence of the peaks found
/// within 1.5 bins of them. All unfoldings of one alias predict the same folded harmonics, so
/// the throttle relation decides between them: in every throttle slice of the heat map with
/// the motors turning, the rotor line moves with the command (f ∝ command, or ∝ √command as
/// the throttle notch assumes), and the unfolding whose predicted lines sit on the slices'
/// densities best is kept. When the slices cannot tell (one throttle, as on a stand), the
/// lowest unfolding — below half the sample rate — is taken, and the report says so.
public struct RotorLines: Sendable, Equatable {
    public enum Role: Sendable, Equatable {
        /// Harmonic n of the fundamental (1: the fundamental), at `trueFrequency`, Hz.
        case harmonic(Int, trueFrequency: Double)
        /// Within 6 % of a rotor line but not on it: the rotors turn at slightly different speeds.
        case beside(Int)
        /// Not explained by this rotor frequency.
        case other
    }

    public struct Line: Sendable, Equatable {
        public var peak: SpectralPeak
        public var role: Role
        /// Whether the line was folded by the sampling (its true frequency is elsewhere).
        public var folded: Bool
    }

    /// The fundamental, Hz (unfolded).
    public var fundamental: Double
    /// Every gyroscope peak with its role, in the analysis's order.
    public var lines: [Line]
    /// The highest harmonic found (1…4): the notch's `harmonics`.
    public var harmonics: Int
    /// Whether the throttle slices chose the unfolding (false: the lowest was taken).
    public var decidedByThrottle: Bool
    /// The folding rates, Hz: the chip's output rate (when faster than the recording's) and the recording's.
    public var foldingRates: [Double]
    /// The mean motor command while the motors turned, when the recording drives them.
    public var referenceThrottle: Double?

    /// The highest harmonic a notch takes (`filter.gyro.notchN.harmonics`).
    public static let maximumHarmonics = 4

    /// Folds a frequency into 0…rate/2 as sampling at `rate` does.
    public static func fold(_ frequency: Double, at rate: Double) -> Double {
        let m = frequency.truncatingRemainder(dividingBy: rate)
        let r = m < 0 ? m + rate : m
        return min(r, rate - r)
    }

    /// Where a true frequency shows in the recording.
    public static func alias(_ frequency: Double, rates: [Double]) -> Double {
        rates.reduce(frequency) { fold($0, at: $1) }
    }

    /// - Parameter chipRate: the chip's output rate, Hz, when known (the configuration's
    ///   `sensor.sample_rate_hz`); it folds first when it is faster than the recording's rate.
    public static func find(in analysis: SpectrumAnalysis, chipRate: Double? = nil) -> RotorLines? {
        let fs = analysis.sampleRate
        let bin = analysis.estimator.resolution
        guard fs > 0, bin > 0 else { return nil }
        var rates = [fs]
        if let chipRate, chipRate > fs * 1.01 { rates.insert(chipRate, at: 0) }
        let gyro = analysis.peaks.filter { $0.axes.contains { $0.hasPrefix("g") } }
        guard !gyro.isEmpty else { return nil }
        let tolerance = 1.5 * bin

        func matches(_ f0: Double) -> [Int: SpectralPeak] {
            var found: [Int: SpectralPeak] = [:]
            for n in 1...maximumHarmonics {
                let a = alias(Double(n) * f0, rates: rates)
                if let p = gyro.filter({ abs($0.frequency - a) <= tolerance }).max(by: { $0.prominence < $1.prominence }) {
                    found[n] = p
                }
            }
            return found
        }
        func score(_ found: [Int: SpectralPeak]) -> Double {
            // The fundamental must be there; each harmonic adds its prominence.
            guard found[1] != nil else { return -1 }
            return found.values.reduce(0) { $0 + $1.prominence }
        }

        // The best alias of the fundamental: the peak whose harmonic comb explains most.
        var best: (alias: SpectralPeak, score: Double)? = nil
        for peak in gyro where peak.frequency >= 2 * bin {
            let s = score(matches(peak.frequency))
            if s > (best?.score ?? 0) + 1e-9 { best = (peak, s) }
        }
        guard let chosen = best?.alias else { return nil }
        let a = chosen.frequency
        var unfoldings: [Double] = []
        for k in 0...4 {
            for f in [a + Double(k) * fs, Double(k) * fs - a] where f >= 2 * bin && f <= 4 * fs {
                guard abs(alias(f, rates: rates) - a) <= tolerance else { continue }
                if !unfoldings.contains(where: { abs($0 - f) < bin }) { unfoldings.append(f) }
            }
        }
        unfoldings.sort()
        var fundamental = unfoldings.first ?? a
        var decided = false
        if let slices = analysis.throttle, let reference = analysis.runningThrottle, Self.slicesSpanThrottle(slices) {
            // Only a line that moves with the command, and is there in every slice, can decide.
            let steady = throttleFit(a, reference: reference, slices: slices, analysis: analysis, rates: rates, exponents: [0])
            let scored = unfoldings.compactMap { f in
                throttleFit(f, reference: reference, slices: slices, analysis: analysis, rates: rates).map { (f, $0) }
            }
            if let (f, s) = scored.max(by: { $0.1 < $1.1 }), s > (steady ?? -Double.infinity) + 3,
               s > (scored.filter { $0.0 != f }.map(\.1).max() ?? -Double.infinity) + 3 {
                fundamental = f
                decided = true
            }
        }
        let found = matches(fundamental)
        let harmonics = found.keys.max() ?? 1
        var lines: [Line] = []
        for peak in gyro {
            if let (n, _) = found.first(where: { $0.value == peak }) {
                let f = Double(n) * fundamental
                lines.append(Line(peak: peak, role: .harmonic(n, trueFrequency: f), folded: abs(f - peak.frequency) > tolerance))
            } else if let n = (1...harmonics).first(where: { n in
                let line = alias(Double(n) * fundamental, rates: rates)
                return abs(peak.frequency - line) <= 0.06 * line
            }) {
                lines.append(Line(peak: peak, role: .beside(n), folded: false))
            } else {
                lines.append(Line(peak: peak, role: .other, folded: false))
            }
        }
        lines.sort { l, r in
            func key(_ line: Line) -> Int {
                switch line.role { case .harmonic(let n, _): n; case .beside(let n): 10 + n; case .other: 100 }
            }
            return key(l) < key(r)
        }
        return RotorLines(fundamental: fundamental, lines: lines, harmonics: harmonics, decidedByThrottle: decided,
                          foldingRates: rates, referenceThrottle: analysis.runningThrottle)
    }

    /// Whether the slices with the motors turning (two segments or more) span 0.1 of command
    /// or more: enough for the line's movement to tell unfoldings apart.
    static func slicesSpanThrottle(_ slices: ThrottleSpectrum) -> Bool {
        let used = slices.throttles.indices.filter { slices.counts[$0] >= 2 && slices.throttles[$0] >= 0.05 }.map { slices.throttles[$0] }
        guard let low = used.min(), let high = used.max() else { return false }
        return high - low >= 0.1 - 1e-9
    }

    /// How well a fundamental `f0` at the `reference` command predicts the rotor line in each
    /// throttle slice with the motors turning (two segments or more): the summed height (dB
    /// above the slice's median) of the slice's density within a bin of the predicted alias,
    /// the better of f ∝ command and f ∝ √command (`exponents`); nil when the line is not at
    /// least 6 dB up in every slice.
    static func throttleFit(_ f0: Double, reference: Double, slices: ThrottleSpectrum, analysis: SpectrumAnalysis, rates: [Double],
                            exponents: [Double] = [1, 0.5]) -> Double? {
        let bin = analysis.estimator.resolution
        let width = 1.0 / Double(max(1, slices.throttles.count))
        var best: Double? = nil
        for exponent in exponents {
            var total = 0.0
            var complete = true
            for (i, low) in slices.throttles.enumerated() where slices.counts[i] >= 2 && low >= 0.05 {
                let row = slices.decibels[i]
                let command = low + width / 2
                let predicted = alias(f0 * pow(command / reference, exponent), rates: rates)
                let k = Int((predicted / bin).rounded())
                guard k >= 1, k < row.count - 1 else { complete = false; break }
                let floor = PeakFinder.median(row.filter(\.isFinite))
                let height = (row[(k - 1)...(k + 1)].filter(\.isFinite).max() ?? floor) - floor
                guard height >= 6 else { complete = false; break }
                total += height
            }
            if complete { best = max(best ?? -Double.infinity, total) }
        }
        return best
    }

    /// The notch to paste: throttle-tracking at the reference command when the recording
    /// drives motors, else static; half the centre wide, 40 dB deep, every harmonic found.
    public var proposal: NotchProposal {
        NotchProposal(mode: referenceThrottle == nil ? "static" : "throttle",
                      centerHz: (fundamental * 10).rounded() / 10,
                      bandwidthHz: (fundamental * 5).rounded() / 10,
                      attenuationDecibels: 40,
                      referenceThrottle: referenceThrottle.map { ($0 * 100).rounded() / 100 },
                      harmonics: harmonics)
    }
}

/// A `filter.gyro` notch as the configuration's keys hold it.
public struct NotchProposal: Sendable, Equatable, Codable {
    public var mode: String
    public var centerHz: Double
    public var bandwidthHz: Double
    public var attenuationDecibels: Double
    public var referenceThrottle: Double?
    public var harmonics: Int

    /// The YAML lines to paste into a configuration (`slot`: which notch, 1…4).
    public func configLines(slot: Int = 1) -> [String] {
        var lines = ["filter:", "  gyro:", "    notch\(slot):",
                     "      mode: \(mode)",
                     "      center_hz: \(Self.decimal(centerHz))",
                     "      bandwidth_hz: \(Self.decimal(bandwidthHz))",
                     "      attenuation_db: \(Self.decimal(attenuationDecibels))"]
        if let referenceThrottle { lines.append("      reference_throttle: \(Self.decimal(referenceThrottle, 2))") }
        lines.append("      harmonics: \(harmonics)")
        return lines
    }

    static func decimal(_ value: Double, _ decimals: Int = 1) -> String {
        SpectrumAnalysis.format(value, decimals)
    }
}
