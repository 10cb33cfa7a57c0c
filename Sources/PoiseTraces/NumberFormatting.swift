/// Short round-trip decimal text for Float and Double, written straight into a buffer.
///
/// A Float is scaled to 9 significant digits (always enough to identify it); 7 or 8 digits
/// are used instead when that decimal still lies strictly inside the Float's rounding
/// interval. A Double is rounded to 15 digits and checked by converting back exactly
/// (Clinger's fast path). Either way the text reads back to the same bits. Values outside
/// 1e-21…1e21, subnormals, and Doubles needing 16–17 digits fall back to the standard
/// library's `description` (the only path that may allocate, for Doubles of 16+ chars).
@usableFromInline
enum NumberFormatting {
    /// Bytes a formatted value can take at most.
    @inlinable static var maximumLength: Int {
        @inline(__always) @_semantics("no_performance_analysis") @_noAllocation get { 32 }
    }

    /// Writes `value` at `p` (≥ `maximumLength` bytes free); returns the byte count.
    @inline(never) @_semantics("no_performance_analysis")
    static func write(_ value: Float, to p: UnsafeMutablePointer<UInt8>) -> Int {
        if value == 0 { return writeZero(value.sign == .minus, p) }
        let a = Double(value.magnitude)
        if value.isFinite && a >= 0x1p-126, let k = decimalExponent(a) {
            // Scale to 9 significant digits (always enough for a Float). A candidate with
            // fewer digits is right if it lies strictly inside the interval of reals that
            // round to `value`: half the gap to the nearest neighbour on either side (the
            // lower gap is half as wide at a power of two). The margin covers the rounding
            // error of `scaled` (≤ 2⁻⁵² relative), so no conversion back is needed.
            let s = 8 - k
            if s >= -22 && s <= 22 {
                let scaled = s >= 0 ? a * powersOfTen[s] : a / powersOfTen[-s]
                let magnitude = value.magnitude
                let gap = Double(magnitude.ulp) * (magnitude.significandBitPattern == 0 ? 0.5 : 1)
                let margin = scaled * (gap / (2 * a)) * (1 - 1e-6)
                let d9 = UInt64((scaled + 0x1p52) - 0x1p52)
                var d = d9
                var e = -s
                if abs(Double((d9 + 50) / 100 * 100) - scaled) < margin {
                    d = (d9 + 50) / 100; e += 2
                } else if abs(Double((d9 + 5) / 10 * 10) - scaled) < margin {
                    d = (d9 + 5) / 10; e += 1
                }
                if d != 0 {
                    while d % 10 == 0 { d /= 10; e += 1 }
                    return writeDecimal(value.sign == .minus, d, e, p)
                }
            }
        }
        return writeDescription(value.description, p)
    }

    @inline(never) @_semantics("no_performance_analysis")
    static func write(_ value: Double, to p: UnsafeMutablePointer<UInt8>) -> Int {
        if value == 0 { return writeZero(value.sign == .minus, p) }
        let a = value.magnitude
        if value.isFinite && a >= 0x1p-1022, let k = decimalExponent(a) {
            // 15 digits first (always exact to compute); trailing zeros are stripped.
            if let (d, e) = candidate(a, digits: 15, k: k), exactDouble(d, e) == a {
                return writeDecimal(value.sign == .minus, d, e, p)
            }
        }
        return writeDescription(value.description, p)
    }

    static let powersOfTen: InlineArray<23, Double> = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// ⌊log10 a⌋ for 1e-22 ≤ a < 1e22 (possibly off by one near powers of ten, which only
    /// changes how many digits a candidate has), or nil outside that range.
    @inline(__always)
    static func decimalExponent(_ a: Double) -> Int? {
        let binaryExponent = Int(truncatingIfNeeded: (a.bitPattern >> 52) & 0x7FF) - 1023
        // ⌊binaryExponent·log10(2)⌋ without libm: truncate, then correct negative values.
        let estimate = Double(binaryExponent) * 0.301029995663981195
        var k = Int(estimate)
        if Double(k) > estimate { k -= 1 }
        if k < -21 || k > 21 { return nil }
        if k >= 0 { if a >= powersOfTen[k + 1] { k += 1 } } else if a * powersOfTen[-k] >= 10 { k += 1 }
        return k
    }

    /// `a` rounded to about `digits` significant digits as `d·10^e`, trailing zeros removed;
    /// nil when the scaling is not exact.
    @inline(__always)
    static func candidate(_ a: Double, digits: Int, k: Int) -> (UInt64, Int)? {
        let s = digits - 1 - k
        if s < -22 || s > 22 { return nil }
        let scaled = s >= 0 ? a * powersOfTen[s] : a / powersOfTen[-s]
        if scaled >= 0x1p52 || scaled < 1 { return nil }
        // Round to nearest even integer without a libm call (exact below 2⁵²).
        let rounded = (scaled + 0x1p52) - 0x1p52
        var d = UInt64(rounded)
        var e = -s
        while d % 10 == 0 { d /= 10; e += 1 }
        return (d, e)
    }

    /// Whether `d·10^e`, correctly rounded to Float, is `target`.
    @inline(__always)
    static func floatMatches(_ d: UInt64, _ e: Int, _ target: Float) -> Bool {
        if e < 0 && e >= -22 && d <= 1 << 53 {
            // A multiply by rounded 10^e is within 2 Double ulps; far from a Float midpoint
            // that is as good as the exact quotient.
            let approximate = Double(d) * DecimalParsing.negativePowersOfTen[-e]
            let low = Int64(truncatingIfNeeded: approximate.bitPattern & 0x1FFF_FFFF) &- 0x1000_0000
            if low > 16 || low < -16 { return Float(approximate) == target }
        }
        guard let wide = exactDouble(d, e) else { return false }
        // Exactly halfway between two Floats: the Double may hide which side; give up.
        if wide.bitPattern & 0x1FFF_FFFF == 0x1000_0000 { return false }
        return Float(wide) == target
    }

    /// `d·10^e` correctly rounded to Double, or nil when that needs more than Clinger's fast path.
    @inline(__always)
    static func exactDouble(_ d: UInt64, _ e: Int) -> Double? {
        if d > 1 << 53 || e < -22 || e > 22 { return nil }
        let m = Double(d)
        return e >= 0 ? m * powersOfTen[e] : m / powersOfTen[-e]
    }

    /// Writes the decimal digits of `d` (exactly `count` of them) ending just before `end`.
    @inline(__always)
    static func writeDigits(_ d: UInt64, count: Int, endingAt end: UnsafeMutablePointer<UInt8>) {
        var rest = d
        var q = end
        var remaining = count
        while remaining >= 2 {
            let pair = rest % 100
            rest /= 100
            q -= 2
            q[0] = UInt8(truncatingIfNeeded: pair / 10) &+ 48
            q[1] = UInt8(truncatingIfNeeded: pair % 10) &+ 48
            remaining -= 2
        }
        if remaining == 1 { (q - 1).pointee = UInt8(truncatingIfNeeded: rest) &+ 48 }
    }

    @inline(__always)
    static func digitCount(_ d: UInt64) -> Int {
        var n = 1
        var limit: UInt64 = 10
        while d >= limit && n < 19 { n += 1; limit &*= 10 }
        return n
    }

    /// Writes `±d·10^e` positionally when short, else as `d.ddde±x`.
    @inline(__always)
    static func writeDecimal(_ negative: Bool, _ d: UInt64, _ e: Int, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        let n = digitCount(d)
        var q = 0
        if negative { p[0] = UInt8(ascii: "-"); q = 1 }
        let point = n + e  // digits before the decimal point
        if e >= 0 && point <= 16 {
            writeDigits(d, count: n, endingAt: p + q + n)
            q += n
            for _ in 0..<e { p[q] = 48; q += 1 }
            p[q] = UInt8(ascii: "."); p[q + 1] = 48
            return q + 2
        }
        if e < 0 && point > 0 {
            // Digits one place to the right, then the integer part back left over the point.
            writeDigits(d, count: n, endingAt: p + q + n + 1)
            for i in 0..<point { p[q + i] = p[q + i + 1] }
            p[q + point] = UInt8(ascii: ".")
            return q + n + 1
        }
        if e < 0 && point > -5 {
            p[q] = 48; p[q + 1] = UInt8(ascii: "."); q += 2
            for _ in 0 ..< -point { p[q] = 48; q += 1 }
            writeDigits(d, count: n, endingAt: p + q + n)
            return q + n
        }
        // d.ddde±x: digits one place right, first digit moved back over the point.
        writeDigits(d, count: n, endingAt: p + q + n + 1)
        p[q] = p[q + 1]
        if n > 1 { p[q + 1] = UInt8(ascii: "."); q += n + 1 } else { q += 1 }
        p[q] = UInt8(ascii: "e"); q += 1
        var exponent = point - 1
        if exponent < 0 { p[q] = UInt8(ascii: "-"); q += 1; exponent = -exponent }
        if exponent >= 100 { p[q] = UInt8(truncatingIfNeeded: exponent / 100) &+ 48; q += 1 }
        if exponent >= 10 { p[q] = UInt8(truncatingIfNeeded: exponent / 10 % 10) &+ 48; q += 1 }
        p[q] = UInt8(truncatingIfNeeded: exponent % 10) &+ 48
        return q + 1
    }

    static func writeZero(_ negative: Bool, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        var q = 0
        if negative { p[0] = UInt8(ascii: "-"); q = 1 }
        p[q] = 48; p[q + 1] = UInt8(ascii: "."); p[q + 2] = 48
        return q + 3
    }

    static func writeDescription(_ text: String, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        var text = text
        return text.withUTF8 { utf8 in
            let n = min(utf8.count, maximumLength)
            UnsafeMutableRawPointer(p).copyMemory(from: utf8.baseAddress!, byteCount: n)
            return n
        }
    }
}
