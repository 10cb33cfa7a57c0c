/// A seeded pseudo-random generator (xoshiro256**, seeded through SplitMix64) whose output
/// depends only on the seed: the same seed gives the same numbers on every machine and run.
///
/// Gaussian numbers use Box–Muller with ``Elementary`` (PoiseMath) so they are bit-identical too.
///
/// ```swift
/// var random = DeterministicRandom(seed: 42)
/// let u = random.nextUniform()        // [0, 1)
/// let n = random.nextGaussian()       // mean 0, standard deviation 1
/// let k = Int.random(in: 0..<6, using: &random)
/// ```
public struct DeterministicRandom: RandomNumberGenerator, Sendable {
    private var s0, s1, s2, s3: UInt64
    private var spareGaussian: Double?

    /// A generator whose whole sequence is determined by `seed`.
    public init(seed: UInt64) {
        var x = seed
        func splitMix() -> UInt64 {
            x &+= 0x9E37_79B9_7F4A_7C15
            var z = x
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = splitMix()
        s1 = splitMix()
        s2 = splitMix()
        s3 = splitMix()
        spareGaussian = nil
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        let result = rotateLeft(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotateLeft(s3, 45)
        return result
    }

    private func rotateLeft(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }

    /// A uniform number in [0, 1) with 53 random bits.
    public mutating func nextUniform() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// A standard normal number (mean 0, standard deviation 1).
    public mutating func nextGaussian() -> Double {
        if let spare = spareGaussian {
            spareGaussian = nil
            return spare
        }
        // u1 ∈ (0, 1] so the logarithm is finite.
        let u1 = Double((next() >> 11) + 1) * 0x1p-53
        let u2 = nextUniform()
        let radius = (-2 * Elementary.log(u1)).squareRoot()
        let angle = 2 * Double.pi * u2
        spareGaussian = radius * Elementary.sin(angle)
        return radius * Elementary.cos(angle)
    }
}
