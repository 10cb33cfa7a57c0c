#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Welch's power spectral density: the signal cut into segments overlapping by half, each
/// with its mean removed and a Hann window applied, the periodograms averaged.
///
/// The density is one-sided, in the signal's unit² per Hz (every bin but DC and Nyquist
/// doubled), scaled by the window's energy so a white noise of variance σ² reads σ²/(fs/2)
/// and a sine of amplitude A carries A²/2 summed over its bins.
public struct WelchEstimator: Sendable {
    public let sampleRate: Double
    public let segmentLength: Int
    let transform: FourierTransform
    let window: [Double]
    let scale: Double

    public init(sampleRate: Double, segmentLength: Int) {
        self.sampleRate = sampleRate
        self.segmentLength = segmentLength
        transform = FourierTransform(count: segmentLength)
        // Periodic Hann: the window's N-point period, right for spectral analysis.
        window = (0..<segmentLength).map { 0.5 - 0.5 * cos(2 * .pi * Double($0) / Double(segmentLength)) }
        scale = 1 / (sampleRate * window.reduce(0) { $0 + $1 * $1 })
    }

    /// The power-of-two segment length whose bin width fs/N is at most `resolution` Hz (the
    /// shortest such), but no longer than the signal allows: at least four half-overlapping
    /// segments when there are samples for them, never fewer than 16 points.
    public static func segmentLength(sampleRate: Double, resolution: Double, sampleCount: Int) -> Int {
        var n = 16
        while sampleRate / Double(n) > resolution && n < 1 << 20 { n *= 2 }
        while n > 16 && 5 * n / 2 > sampleCount { n /= 2 }
        return n
    }

    /// Bin width, Hz.
    public var resolution: Double { sampleRate / Double(segmentLength) }
    /// Centre frequency of each bin, Hz: 0 … fs/2.
    public var frequencies: [Double] { (0...segmentLength / 2).map { Double($0) * resolution } }

    /// Start indices of the half-overlapping segments of a signal of `count` samples.
    public func segmentStarts(count: Int) -> [Int] {
        guard count >= segmentLength else { return [] }
        return Array(stride(from: 0, through: count - segmentLength, by: segmentLength / 2))
    }

    /// The one-sided periodogram of `signal[start ..< start + segmentLength]`, unit²/Hz.
    public func periodogram(_ signal: [Double], start: Int) -> [Double] {
        let slice = signal[start..<(start + segmentLength)]
        let mean = slice.reduce(0, +) / Double(segmentLength)
        var x = [Double](repeating: 0, count: segmentLength)
        for i in 0..<segmentLength { x[i] = (slice[start + i] - mean) * window[i] }
        var p = transform.power(of: x)
        for k in p.indices { p[k] *= (k == 0 || k == segmentLength / 2) ? scale : 2 * scale }
        return p
    }

    /// The averaged density of `signal` (NaN cells count as 0; an empty array when the
    /// signal is shorter than one segment).
    public func density(_ signal: [Double]) -> [Double] {
        let clean = signal.map { $0.isFinite ? $0 : 0 }
        let starts = segmentStarts(count: clean.count)
        guard !starts.isEmpty else { return [] }
        var sum = [Double](repeating: 0, count: segmentLength / 2 + 1)
        for start in starts {
            let p = periodogram(clean, start: start)
            for k in sum.indices { sum[k] += p[k] }
        }
        return sum.map { $0 / Double(starts.count) }
    }
}

/// Decibels of a power density (10·log₁₀), floored so an exact zero stays finite.
public func decibels(_ power: Double) -> Double { 10 * log10(max(power, 1e-30)) }
