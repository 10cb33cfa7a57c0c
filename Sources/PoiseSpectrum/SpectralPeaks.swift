/// A peak of one or more axes' spectra.
public struct SpectralPeak: Sendable, Equatable {
    /// Frequency, Hz: the strongest axis's bin, refined by a parabola through it and its
    /// neighbours (in dB), so it lies within half a bin of the bin's centre.
    public var frequency: Double
    /// Density at the peak on the strongest axis, dB re 1 unit²/Hz.
    public var decibels: Double
    /// How far the peak stands above that axis's median floor, dB.
    public var prominence: Double
    /// The axes with a peak in this bin or the next, strongest first.
    public var axes: [String]
}

/// Finds peaks by one stated rule: a bin is a peak of an axis when it is a strict local
/// maximum of the density and stands at least `threshold` dB above the median of that axis's
/// density over the bins from `minimumFrequency` up (the noise floor; a median ignores the
/// peaks themselves). Peaks of several axes within one bin of each other are one peak.
public struct PeakFinder: Sendable {
    public var threshold: Double
    public var minimumFrequency: Double
    public var maximumCount: Int

    public init(threshold: Double = 10, minimumFrequency: Double = 2, maximumCount: Int = 8) {
        self.threshold = threshold
        self.minimumFrequency = minimumFrequency
        self.maximumCount = maximumCount
    }

    /// The peaks of `spectra` (name, density in unit²/Hz) over `frequencies`, most prominent first.
    public func peaks(frequencies: [Double], spectra: [(name: String, density: [Double])]) -> [SpectralPeak] {
        struct Candidate { var bin: Int; var frequency: Double; var decibels: Double; var prominence: Double; var axis: String }
        var candidates: [Candidate] = []
        for (name, density) in spectra where density.count == frequencies.count && density.count >= 3 {
            let db = density.map(PoiseSpectrum.decibels)
            let first = max(1, frequencies.firstIndex { $0 >= minimumFrequency } ?? 1)
            guard first < db.count - 1 else { continue }
            let floor = Self.median(Array(db[first...]))
            for k in first..<(db.count - 1) where db[k] > db[k - 1] && db[k] > db[k + 1] && db[k] - floor >= threshold {
                // Vertex of the parabola through the three bins, in bins from k.
                let (l, c, r) = (db[k - 1], db[k], db[k + 1])
                let denominator = l - 2 * c + r
                let offset = denominator < 0 ? max(-0.5, min(0.5, 0.5 * (l - r) / denominator)) : 0
                let resolution = frequencies[1] - frequencies[0]
                candidates.append(Candidate(bin: k, frequency: frequencies[k] + offset * resolution,
                                            decibels: c, prominence: c - floor, axis: name))
            }
        }
        candidates.sort { $0.prominence > $1.prominence }
        var peaks: [(bin: Int, peak: SpectralPeak)] = []
        for c in candidates {
            if let i = peaks.firstIndex(where: { abs($0.bin - c.bin) <= 1 }) {
                if !peaks[i].peak.axes.contains(c.axis) { peaks[i].peak.axes.append(c.axis) }
            } else {
                peaks.append((c.bin, SpectralPeak(frequency: c.frequency, decibels: c.decibels, prominence: c.prominence, axes: [c.axis])))
            }
        }
        return Array(peaks.map(\.peak).prefix(maximumCount))
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let m = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2
    }
}
