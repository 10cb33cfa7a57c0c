/// The gyroscope's spectrum sliced by motor command, as Blackbox Explorer draws it: each
/// Welch segment goes to the throttle bin of its mean command, and each bin holds the mean
/// periodogram (summed over the axes) of its segments.
public struct ThrottleSpectrum: Sendable, Equatable {
    /// Lower edge of each throttle bin (0…1, width `1 / binCount`).
    public var throttles: [Double]
    /// Segments per bin.
    public var counts: [Int]
    /// Density per bin and frequency bin, dB re 1 unit²/Hz; NaN where a throttle bin has no segment.
    public var decibels: [[Double]]

    /// Slices `axes` (equal-length signals) by `throttle` (0…1 per sample).
    public init(estimator: WelchEstimator, axes: [[Double]], throttle: [Double], binCount: Int = 20) {
        let bins = max(1, binCount)
        let width = estimator.segmentLength / 2 + 1
        var sums = [[Double]](repeating: [Double](repeating: 0, count: width), count: bins)
        var counts = [Int](repeating: 0, count: bins)
        let clean = axes.map { $0.map { $0.isFinite ? $0 : 0 } }
        for start in estimator.segmentStarts(count: throttle.count) {
            let slice = throttle[start..<(start + estimator.segmentLength)].filter(\.isFinite)
            guard !slice.isEmpty else { continue }
            let mean = slice.reduce(0, +) / Double(slice.count)
            let bin = max(0, min(bins - 1, Int(mean * Double(bins))))
            counts[bin] += 1
            for axis in clean where axis.count >= start + estimator.segmentLength {
                let p = estimator.periodogram(axis, start: start)
                for k in 0..<width { sums[bin][k] += p[k] }
            }
        }
        throttles = (0..<bins).map { Double($0) / Double(bins) }
        self.counts = counts
        decibels = (0..<bins).map { b in
            counts[b] == 0 ? [Double](repeating: .nan, count: width) : sums[b].map { PoiseSpectrum.decibels($0 / Double(counts[b])) }
        }
    }

    /// The slices from per-bin segment counts and summed periodograms (``WelchAccumulator``).
    public init(counts: [Int], sums: [[Double]]) {
        let bins = counts.count
        let width = sums.first?.count ?? 0
        throttles = (0..<bins).map { Double($0) / Double(bins) }
        self.counts = counts
        decibels = (0..<bins).map { b in
            counts[b] == 0 ? [Double](repeating: .nan, count: width) : sums[b].map { PoiseSpectrum.decibels($0 / Double(counts[b])) }
        }
    }
}
