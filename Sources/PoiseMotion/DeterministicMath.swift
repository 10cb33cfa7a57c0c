// Elementary functions built from IEEE-754 basic operations only (+ − × ÷ and square root,
// which IEEE requires to be correctly rounded). libm's sin/cos/log may differ in the last bit
// between C libraries and machines; synthetic traces must be bit-identical everywhere, so the
// generator and the noise model use these instead. Accuracy is a few units in the last place
// of a Double, far below the Float precision of the produced samples.

/// Deterministic elementary functions in `Double` (IEEE basic operations only).
///
/// Same input → same output bits on every conforming machine, unlike the C library's
/// `sin`, `cos` and `log`.
public enum DeterministicMath {
    // π/2 split into parts of at most 26 significant bits (the last one carries the rest),
    // so k·part is exact for |k| < 2²⁷ and x − k·π/2 is computed almost exactly
    // (Cody–Waite reduction).
    @usableFromInline static let halfPi1 = 0x1.921fb58000000p+0
    @usableFromInline static let halfPi2 = -0x1.dde9740000000p-27
    @usableFromInline static let halfPi3 = 0x1.1a62630000000p-54
    @usableFromInline static let halfPi4 = 0x1.8a2e03707344ap-81
    @usableFromInline static let twoOverPi = 6.3661977236758138e-01
    /// 2²⁷ · π/2: up to here the reduction is accurate to a few ulps.
    public static let accurateArgumentLimit = 2.1e8

    /// Reduces `x` to `r ∈ [−π/4, π/4]` and the quadrant `k mod 4`.
    @usableFromInline
    static func reduce(_ x: Double) -> (r: Double, quadrant: Int) {
        var x = x
        if abs(x) > accurateArgumentLimit {
            // Exact remainder by the Double nearest 2π: finite and deterministic, but off by
            // about |x|·2.4e-16 rad. Motion scripts never get here (the parser limits phases).
            x = x.truncatingRemainder(dividingBy: 6.283185307179586)
        }
        let k = (x * twoOverPi).rounded(.toNearestOrEven)
        let r = (((x - k * halfPi1) - k * halfPi2) - k * halfPi3) - k * halfPi4
        // k is an integer below 2²⁸ in magnitude here: its quadrant is its two low bits
        // (two's complement gives the right one for negative k too), without an fmod call.
        return (r, Int(k) & 3)
    }

    // Taylor kernels on |r| ≤ π/4; the truncation error is below 1e-19.
    @usableFromInline
    static func sinKernel(_ r: Double) -> Double {
        let r2 = r * r
        var p = 1.0 / 355_687_428_096_000  // 1/17!
        p = p * r2 - 1.0 / 1_307_674_368_000  // 1/15!
        p = p * r2 + 1.0 / 6_227_020_800  // 1/13!
        p = p * r2 - 1.0 / 39_916_800  // 1/11!
        p = p * r2 + 1.0 / 362_880  // 1/9!
        p = p * r2 - 1.0 / 5_040  // 1/7!
        p = p * r2 + 1.0 / 120
        p = p * r2 - 1.0 / 6
        return r + r * r2 * p
    }

    @usableFromInline
    static func cosKernel(_ r: Double) -> Double {
        let r2 = r * r
        var p = 1.0 / 6_402_373_705_728_000  // 1/18!
        p = p * r2 - 1.0 / 20_922_789_888_000  // 1/16!
        p = p * r2 + 1.0 / 87_178_291_200  // 1/14!
        p = p * r2 - 1.0 / 479_001_600  // 1/12!
        p = p * r2 + 1.0 / 3_628_800  // 1/10!
        p = p * r2 - 1.0 / 40_320  // 1/8!
        p = p * r2 + 1.0 / 720
        p = p * r2 - 1.0 / 24
        p = p * r2 + 0.5
        return 1 - r2 * p
    }

    /// Sine of `x` radians (accurate to a few ulps up to ``accurateArgumentLimit``). Not finite → NaN.
    public static func sin(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        let (r, q) = reduce(x)
        switch q {
        case 0: return sinKernel(r)
        case 1: return cosKernel(r)
        case 2: return -sinKernel(r)
        default: return -cosKernel(r)
        }
    }

    /// Cosine of `x` radians (accurate to a few ulps up to ``accurateArgumentLimit``). Not finite → NaN.
    public static func cos(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        let (r, q) = reduce(x)
        switch q {
        case 0: return cosKernel(r)
        case 1: return -sinKernel(r)
        case 2: return -cosKernel(r)
        default: return sinKernel(r)
        }
    }

    @usableFromInline static let ln2High = 6.93147180369123816490e-01
    @usableFromInline static let ln2Low = 1.90821492927058770002e-10

    /// Natural logarithm of a positive normal `x`; 0 or negative → NaN or −∞ like `log`.
    public static func log(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return x == 0 ? -.infinity : (x.isNaN || x < 0 ? .nan : x) }
        var m = x.significand  // [1, 2), exact
        var e = Double(x.exponent)
        if m > 1.4142135623730951 {
            m *= 0.5
            e += 1
        }
        // log m = 2 atanh(s), s = (m − 1)/(m + 1), |s| ≤ 0.1716.
        let s = (m - 1) / (m + 1)
        let s2 = s * s
        var p = 1.0 / 21
        p = p * s2 + 1.0 / 19
        p = p * s2 + 1.0 / 17
        p = p * s2 + 1.0 / 15
        p = p * s2 + 1.0 / 13
        p = p * s2 + 1.0 / 11
        p = p * s2 + 1.0 / 9
        p = p * s2 + 1.0 / 7
        p = p * s2 + 1.0 / 5
        p = p * s2 + 1.0 / 3
        let logM = 2 * s + 2 * s * s2 * p
        return (e * ln2High + logM) + e * ln2Low
    }
}
