#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A radix-2 fast Fourier transform of real input, for spectra computed offline.
///
/// Iterative Cooley–Tukey on a power-of-two length, with the bit-reversal order and the
/// twiddle factors computed once per length; `Double` throughout (a recording's spectrum is
/// not on the real-time path).
public struct FourierTransform: Sendable {
    public let count: Int
    let reversed: [Int]
    let cosines: [Double]
    let sines: [Double]

    /// A transform of `count` points; `count` must be a power of two ≥ 2.
    public init(count: Int) {
        precondition(count >= 2 && count & (count - 1) == 0, "FFT length \(count) is not a power of two")
        self.count = count
        var bits = 0
        while 1 << bits < count { bits += 1 }
        reversed = (0..<count).map { i in
            var r = 0
            for b in 0..<bits where i & (1 << b) != 0 { r |= 1 << (bits - 1 - b) }
            return r
        }
        cosines = (0..<count / 2).map { cos(2 * .pi * Double($0) / Double(count)) }
        sines = (0..<count / 2).map { -sin(2 * .pi * Double($0) / Double(count)) }
    }

    /// |X[k]|² for k = 0 … count/2 (DC to Nyquist) of the real sequence `x` (`count` values).
    public func power(of x: [Double]) -> [Double] {
        var re = [Double](repeating: 0, count: count)
        var im = [Double](repeating: 0, count: count)
        for i in 0..<count { re[reversed[i]] = x[i] }
        var size = 2
        while size <= count {
            let half = size / 2, step = count / size
            var start = 0
            while start < count {
                for j in 0..<half {
                    let c = cosines[j * step], s = sines[j * step]
                    let a = start + j, b = a + half
                    let tr = re[b] * c - im[b] * s
                    let ti = re[b] * s + im[b] * c
                    re[b] = re[a] - tr
                    im[b] = im[a] - ti
                    re[a] += tr
                    im[a] += ti
                }
                start += size
            }
            size *= 2
        }
        return (0...count / 2).map { re[$0] * re[$0] + im[$0] * im[$0] }
    }
}
