// Elementary functions of the project's own, in plain IEEE arithmetic: the same bits on every
// CPU. The C library's `sinf`, `atan2f`… pick variants by CPU on x86-64 (FMA or not) and differ
// on aarch64, so an attitude computed through them is not reproducible across boards; these use
// only +, −, ×, ÷, square root and conversions, which IEEE 754 rounds one way everywhere (Swift
// never fuses a multiply and an add on its own). They are also what Embedded Swift builds with,
// where no libm is imported.
//
// Each is evaluated in Double; the Float versions round that result once. Arguments are reduced
// by Cody–Waite steps, exact for the angles and exponents a robot sees (|x| < 2.1·10⁸).
//
// The public wrappers are excluded from performance analysis so the `@_noAllocation` real-time
// path may call them, and stay real calls for the reason given in SquareRoot.swift.

@inlinable @inline(never) @_semantics("no_performance_analysis")
public func _sin(_ x: Float) -> Float { Float(Elementary.sin(Double(x))) }
@inlinable @inline(never) @_semantics("no_performance_analysis")
public func _cos(_ x: Float) -> Float { Float(Elementary.cos(Double(x))) }
@inlinable @inline(never) @_semantics("no_performance_analysis")
public func _atan2(_ y: Float, _ x: Float) -> Float { Float(Elementary.atan2(Double(y), Double(x))) }
@inlinable @inline(never) @_semantics("no_performance_analysis")
public func _asin(_ x: Float) -> Float { Float(Elementary.asin(Double(x))) }
@inlinable @inline(never) @_semantics("no_performance_analysis")
public func _acos(_ x: Float) -> Float { Float(Elementary.acos(Double(x))) }
@inlinable @inline(never) @_semantics("no_performance_analysis")
public func _exp(_ x: Float) -> Float { Float(Elementary.exp(Double(x))) }

@inlinable @inline(never) @_semantics("no_performance_analysis")
public func _sin(_ x: Double) -> Double { Elementary.sin(x) }
@inlinable @inline(never) @_semantics("no_performance_analysis")
public func _cos(_ x: Double) -> Double { Elementary.cos(x) }
@inlinable @inline(never) @_semantics("no_performance_analysis")
public func _tan(_ x: Double) -> Double { Elementary.tan(x) }
@inlinable @inline(never) @_semantics("no_performance_analysis")
public func _atan2(_ y: Double, _ x: Double) -> Double { Elementary.atan2(y, x) }
@inlinable @inline(never) @_semantics("no_performance_analysis")
public func _asin(_ x: Double) -> Double { Elementary.asin(x) }
@inlinable @inline(never) @_semantics("no_performance_analysis")
public func _acos(_ x: Double) -> Double { Elementary.acos(x) }
@inlinable @inline(never) @_semantics("no_performance_analysis")
public func _exp(_ x: Double) -> Double { Elementary.exp(x) }
@inlinable @inline(never) @_semantics("no_performance_analysis")
public func _log(_ x: Double) -> Double { Elementary.log(x) }
@inlinable @inline(never) @_semantics("no_performance_analysis")
public func _log10(_ x: Double) -> Double { Elementary.log(x) * Elementary.log10OfE }

/// The implementations behind `_sin`, `_atan2`…: Double in, Double out, a few units in the
/// last place at most, bit-identical on every IEEE 754 machine.
public enum Elementary {
    // π/2 in four parts of at most 26 significant bits (the last carries the rest), so k·part
    // is exact for |k| < 2²⁷ and x − k·π/2 is computed almost exactly (Cody–Waite reduction).
    @usableFromInline static let halfPi1 = 0x1.921fb58000000p+0
    @usableFromInline static let halfPi2 = -0x1.dde9740000000p-27
    @usableFromInline static let halfPi3 = 0x1.1a62630000000p-54
    @usableFromInline static let halfPi4 = 0x1.8a2e03707344ap-81
    /// 2²⁷ · π/2: up to here the reduction is accurate to a few units in the last place.
    public static let accurateArgumentLimit = 2.1e8
    @usableFromInline static let twoOverPi = 6.3661977236758138e-01
    @usableFromInline static let halfPi = 1.5707963267948966
    @usableFromInline static let quarterPi = 0.7853981633974483
    @usableFromInline static let pi = 3.141592653589793
    // ln 2 in two parts, the first with 24 significant bits.
    @usableFromInline static let ln2Hi = 0.6931471824645996
    @usableFromInline static let ln2Lo = -1.904654299957768e-09
    // ln 2 split for the logarithm: the first part exact in e·part for any exponent e.
    @usableFromInline static let ln2High = 6.93147180369123816490e-01
    @usableFromInline static let ln2Low = 1.90821492927058770002e-10
    @usableFromInline static let log2OfE = 1.4426950408889634
    @usableFromInline static let log10OfE = 0.4342944819032518

    /// The nearest integer as a Double (ties to even), by adding and removing 1.5·2⁵²: no
    /// libm `rint`, and no trap for any finite argument.
    @inlinable static func nearest(_ x: Double) -> Double {
        guard x.magnitude < 0x1p51 else { return x }
        return (x + 0x1.8p52) - 0x1.8p52
    }

    /// x − k·π/2 in [−π/4, π/4] with k the nearest quarter turn, and k mod 4. Beyond
    /// ``accurateArgumentLimit`` the argument is first reduced by the Double nearest 2π (exact,
    /// deterministic, off by about |x|·2.4e-16 rad: no attitude gets there).
    @inlinable static func quarterTurns(_ x: Double) -> (r: Double, quadrant: Int) {
        var x = x
        if x.magnitude > accurateArgumentLimit { x = x.truncatingRemainder(dividingBy: 6.283185307179586) }
        let k = nearest(x * twoOverPi)
        let r = (((x - k * halfPi1) - k * halfPi2) - k * halfPi3) - k * halfPi4
        // |k| < 2²⁸ here: its quadrant is its two low bits (two's complement for negative k).
        return (r, Int(k) & 3)
    }

    /// sin r for |r| ≤ π/4: Taylor series to r¹⁷ (the next term is below 10⁻¹⁹).
    @inlinable static func sinKernel(_ r: Double) -> Double {
        let r2 = r * r
        var p = 1.0 / 355_687_428_096_000          // 1/17!
        p = p * r2 - 1.0 / 1_307_674_368_000       // 1/15!
        p = p * r2 + 1.0 / 6_227_020_800           // 1/13!
        p = p * r2 - 1.0 / 39_916_800              // 1/11!
        p = p * r2 + 1.0 / 362_880                 // 1/9!
        p = p * r2 - 1.0 / 5_040                   // 1/7!
        p = p * r2 + 1.0 / 120
        p = p * r2 - 1.0 / 6
        return r + r * r2 * p
    }

    /// cos r for |r| ≤ π/4: Taylor series to r¹⁸.
    @inlinable static func cosKernel(_ r: Double) -> Double {
        let r2 = r * r
        var p = 1.0 / 6_402_373_705_728_000        // 1/18!
        p = p * r2 - 1.0 / 20_922_789_888_000      // 1/16!
        p = p * r2 + 1.0 / 87_178_291_200          // 1/14!
        p = p * r2 - 1.0 / 479_001_600             // 1/12!
        p = p * r2 + 1.0 / 3_628_800               // 1/10!
        p = p * r2 - 1.0 / 40_320                  // 1/8!
        p = p * r2 + 1.0 / 720
        p = p * r2 - 1.0 / 24
        p = p * r2 + 0.5
        return 1 - r2 * p
    }

    public static func sin(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        if x == 0 { return x }                     // ±0, sign kept as C keeps it
        let (r, quadrant) = quarterTurns(x)
        switch quadrant {
        case 0: return sinKernel(r)
        case 1: return cosKernel(r)
        case 2: return -sinKernel(r)
        default: return -cosKernel(r)
        }
    }

    public static func cos(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        let (r, quadrant) = quarterTurns(x)
        switch quadrant {
        case 0: return cosKernel(r)
        case 1: return -sinKernel(r)
        case 2: return -cosKernel(r)
        default: return sinKernel(r)
        }
    }

    public static func tan(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        let (r, quadrant) = quarterTurns(x)
        let (s, c) = (sinKernel(r), cosKernel(r))
        return quadrant & 1 == 0 ? s / c : -c / s
    }

    /// atan t for |t| ≤ 1: two half-angle steps (atan t = 2·atan(t / (1 + √(1 + t²)))) bring
    /// |t| to at most tan(π/16) ≈ 0.2; the odd series then needs terms to t²³.
    @inlinable static func atanKernel(_ t: Double) -> Double {
        var u = t
        u = u / (1 + (1 + u * u).squareRoot())
        u = u / (1 + (1 + u * u).squareRoot())
        let u2 = u * u
        var p = 1.0 / 23
        p = p * u2 - 1.0 / 21
        p = p * u2 + 1.0 / 19
        p = p * u2 - 1.0 / 17
        p = p * u2 + 1.0 / 15
        p = p * u2 - 1.0 / 13
        p = p * u2 + 1.0 / 11
        p = p * u2 - 1.0 / 9
        p = p * u2 + 1.0 / 7
        p = p * u2 - 1.0 / 5
        p = p * u2 + 1.0 / 3
        return 4 * (u - u * u2 * p)
    }

    public static func atan(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x.magnitude <= 1 { return atanKernel(x) }
        let outer = halfPi - atanKernel(1 / x.magnitude)
        return x < 0 ? -outer : outer
    }

    /// The angle of (x, y) in (−π, π], with C's conventions for zeros and infinities.
    public static func atan2(_ y: Double, _ x: Double) -> Double {
        if x.isNaN || y.isNaN { return .nan }
        if y == 0 {
            // ±0 along +x, ±π along −x (the sign of x and of y's zero decide, as in C).
            if x > 0 || (x == 0 && x.sign == .plus) { return y }
            return y.sign == .minus ? -pi : pi
        }
        if x.isInfinite || y.isInfinite {
            let a: Double
            switch (x.isInfinite, y.isInfinite) {
            case (true, true): a = x > 0 ? quarterPi : 3 * quarterPi
            case (true, false): a = x > 0 ? 0 : pi
            default: a = halfPi
            }
            return y < 0 ? -a : a
        }
        let (ax, ay) = (x.magnitude, y.magnitude)
        // The first octant's angle from the smaller over the larger: the quotient is ≤ 1.
        var a = ay <= ax ? atanKernel(ay / ax) : halfPi - atanKernel(ax / ay)
        if x < 0 { a = pi - a }
        return y < 0 ? -a : a
    }

    public static func asin(_ x: Double) -> Double {
        guard x.magnitude <= 1 else { return .nan }
        return atan2(x, ((1 - x) * (1 + x)).squareRoot())
    }

    public static func acos(_ x: Double) -> Double {
        guard x.magnitude <= 1 else { return .nan }
        return atan2(((1 - x) * (1 + x)).squareRoot(), x)
    }

    public static func exp(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x > 709.782712893384 { return .infinity }
        if x < -745.2 { return 0 }
        let kd = nearest(x * log2OfE)
        let k = Int(kd)
        let r = (x - kd * ln2Hi) - kd * ln2Lo     // |r| ≤ ln 2 / 2
        // e^r by its Taylor series to r¹⁴ (the next term is below 2·10⁻¹⁹ at |r| = 0.35).
        var p = 1.0 / 87_178_291_200               // 1/14!
        p = p * r + 1.0 / 6_227_020_800            // 1/13!
        p = p * r + 1.0 / 479_001_600              // 1/12!
        p = p * r + 1.0 / 39_916_800               // 1/11!
        p = p * r + 1.0 / 3_628_800                // 1/10!
        p = p * r + 1.0 / 362_880
        p = p * r + 1.0 / 40_320
        p = p * r + 1.0 / 5_040
        p = p * r + 1.0 / 720
        p = p * r + 1.0 / 120
        p = p * r + 1.0 / 24
        p = p * r + 1.0 / 6
        p = p * r + 0.5
        let er = 1 + (r + r * r * p)
        return scaled(er, byPowerOfTwo: k)
    }

    /// v·2ᵏ, exact unless the result is subnormal (then rounded once).
    @inlinable static func scaled(_ v: Double, byPowerOfTwo k: Int) -> Double {
        if k > 1023 { return v * 0x1p1023 * Double(sign: .plus, exponent: k - 1023, significand: 1) }
        if k < -1022 { return v * 0x1p-1022 * Double(sign: .plus, exponent: k + 1022, significand: 1) }
        return v * Double(sign: .plus, exponent: k, significand: 1)
    }

    /// The natural logarithm; 0 → −∞, negative or NaN → NaN, +∞ → +∞.
    public static func log(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return x == 0 ? -.infinity : (x.isNaN || x < 0 ? .nan : x) }
        // x = m·2ᵉ with m in [√½, √2) (significand and exponent are exact, subnormals too).
        var m = x.significand
        var e = Double(x.exponent)
        if m > 1.4142135623730951 {
            m *= 0.5
            e += 1
        }
        // log m = 2·atanh s, s = (m − 1)/(m + 1), |s| ≤ 0.1716: the odd series to s²¹.
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
