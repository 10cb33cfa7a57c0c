#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Outcome of parsing one cell as a number. A plain struct rather than an enum so that
/// comparisons need no protocol witness (debug builds check the hot path too).
///
/// Members called from other files carry `no_performance_analysis` for the call site (debug
/// builds cannot see across files) and their own `@_noAllocation`, which checks the body.
@usableFromInline @frozen
struct CellStatus {
    @usableFromInline let rawValue: UInt8
    @inlinable @inline(__always) init(_ rawValue: UInt8) { self.rawValue = rawValue }

    @inlinable static var number: CellStatus {
        @inline(__always) @_semantics("no_performance_analysis") @_noAllocation get { CellStatus(0) }
    }
    @inlinable static var empty: CellStatus {
        @inline(__always) @_semantics("no_performance_analysis") @_noAllocation get { CellStatus(1) }
    }
    @inlinable static var invalid: CellStatus {
        @inline(__always) @_semantics("no_performance_analysis") @_noAllocation get { CellStatus(2) }
    }
    @inlinable static var nonFinite: CellStatus {
        @inline(__always) @_semantics("no_performance_analysis") @_noAllocation get { CellStatus(3) }
    }
    @inlinable static var outOfRange: CellStatus {
        @inline(__always) @_semantics("no_performance_analysis") @_noAllocation get { CellStatus(4) }
    }

    @inlinable @inline(__always) @_semantics("no_performance_analysis") @_noAllocation
    static func == (a: CellStatus, b: CellStatus) -> Bool { a.rawValue == b.rawValue }

    @inlinable @inline(__always) @_semantics("no_performance_analysis") @_noAllocation
    static func != (a: CellStatus, b: CellStatus) -> Bool { a.rawValue != b.rawValue }
}

/// Correctly rounded decimal → binary conversion straight from bytes, without allocation.
///
/// Digits are accumulated into a 64-bit integer (eight fraction digits at a time when
/// possible). Doubles with ≤ 19 significant digits, mantissa ≤ 2⁵³ and |exponent| ≤ 22 use
/// Clinger's fast path: an exact integer → Double conversion and one correctly rounded
/// multiply or divide by an exact power of ten. Floats first try a multiply by a rounded
/// 10⁻ᵏ, accepted when the product is clearly away from a midpoint between two Floats,
/// then the Clinger result rounded to Float unless it sits exactly on a midpoint. Those
/// rare midpoint cases, subnormals, overflow and long inputs go to the C library's
/// `strtof`/`strtod`, which are correctly rounded.
@usableFromInline
enum DecimalParsing {
    /// Exact powers of ten representable in a Double.
    @usableFromInline static let powersOfTen: InlineArray<23, Double> = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The decimal fields of a number, before conversion.
    @usableFromInline
    struct Decimal {
        @usableFromInline var mantissa: UInt64 = 0
        @usableFromInline var exponent: Int = 0
        @usableFromInline var negative = false
        /// Digits were dropped (more than 19 significant ones) or the exponent is huge.
        @usableFromInline var inexact = false
        @inlinable init() {}
    }

    /// Scans `[p, end)` as `[+-]digits[.digits][(e|E)[+-]digits]`; returns the position
    /// after the last byte that belongs to the number, or nil if no number starts at `p`.
    @inlinable @inline(__always)
    static func scan(_ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, into d: inout Decimal) -> UnsafePointer<UInt8>? {
        var q = p
        if q < end && (q.pointee == UInt8(ascii: "-") || q.pointee == UInt8(ascii: "+")) {
            d.negative = q.pointee == UInt8(ascii: "-")
            q += 1
        }
        var significant = 0
        var anyDigit = false
        while q < end {
            let digit = q.pointee &- UInt8(ascii: "0")
            if digit > 9 { break }
            anyDigit = true
            if significant < 19 {
                d.mantissa = d.mantissa &* 10 &+ UInt64(digit)
                if d.mantissa != 0 { significant += 1 }
            } else {
                d.exponent += 1
                if digit != 0 { d.inexact = true }
            }
            q += 1
        }
        if q < end && q.pointee == UInt8(ascii: ".") {
            q += 1
            // Eight fraction digits at once when they are all there (SWAR).
            if end - q >= 8 && significant <= 11 {
                let word = UInt64(littleEndian: UnsafeRawPointer(q).loadUnaligned(as: UInt64.self))
                if isEightDigits(word) {
                    d.mantissa = d.mantissa &* 100_000_000 &+ eightDigitsValue(word)
                    d.exponent -= 8
                    // Leading zeros may be over-counted; that only sends long inputs to strtod.
                    significant = d.mantissa == 0 ? 0 : significant + 8
                    anyDigit = true
                    q += 8
                }
            }
            while q < end {
                let digit = q.pointee &- UInt8(ascii: "0")
                if digit > 9 { break }
                anyDigit = true
                if significant < 19 {
                    d.mantissa = d.mantissa &* 10 &+ UInt64(digit)
                    d.exponent -= 1
                    if d.mantissa != 0 { significant += 1 }
                } else if digit != 0 {
                    d.inexact = true
                }
                q += 1
            }
        }
        if !anyDigit { return nil }
        if q < end && (q.pointee | 0x20) == UInt8(ascii: "e") {
            var r = q + 1
            var negativeExponent = false
            if r < end && (r.pointee == UInt8(ascii: "-") || r.pointee == UInt8(ascii: "+")) {
                negativeExponent = r.pointee == UInt8(ascii: "-")
                r += 1
            }
            var value = 0
            var anyExponentDigit = false
            while r < end {
                let digit = r.pointee &- UInt8(ascii: "0")
                if digit > 9 { break }
                anyExponentDigit = true
                if value < 100_000 { value = value * 10 + Int(digit) } else { d.inexact = true }
                r += 1
            }
            if !anyExponentDigit { return nil }
            d.exponent += negativeExponent ? -value : value
            q = r
        }
        return q
    }

    /// Whether all eight bytes of a little-endian word are ASCII digits.
    @inlinable @inline(__always)
    static func isEightDigits(_ word: UInt64) -> Bool {
        (word & 0xF0F0_F0F0_F0F0_F0F0) | (((word &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0) >> 4)
            == 0x3333_3333_3333_3333
    }

    /// The value of eight ASCII digits (first digit in the lowest byte).
    @inlinable @inline(__always)
    static func eightDigitsValue(_ word: UInt64) -> UInt64 {
        var value = word &- 0x3030_3030_3030_3030
        value = (value &* 10) &+ (value >> 8)  // pairs
        value = ((value & 0x0000_00FF_0000_00FF) &* (100 &+ (1_000_000 << 32))
                 &+ ((value >> 16) & 0x0000_00FF_0000_00FF) &* (1 &+ (10_000 << 32))) >> 32
        return value & 0xFFFF_FFFF
    }

    /// A Double by Clinger's fast path, or nil if it does not apply.
    @inlinable @inline(__always)
    static func fastDouble(_ d: Decimal) -> Double? {
        if d.mantissa == 0 && !d.inexact { return d.negative ? -0.0 : 0.0 }
        guard !d.inexact, d.mantissa <= 1 << 53, d.exponent >= -22, d.exponent <= 22 else { return nil }
        var value = Double(d.mantissa)
        if d.exponent < 0 { value /= powersOfTen[-d.exponent] } else { value *= powersOfTen[d.exponent] }
        return d.negative ? -value : value
    }

    /// Parses the cell starting at `p` in a line ending at `lineEnd` as a Double; `cellEnd`
    /// receives the position of the `,` or line end that ends the cell. The byte at
    /// `lineEnd` must be readable and not part of a number.
    @inlinable @inline(__always) @_semantics("no_performance_analysis") @_noAllocation
    static func parseDouble(_ p: UnsafePointer<UInt8>, _ lineEnd: UnsafePointer<UInt8>, _ value: inout Double,
                            _ cellEnd: inout UnsafePointer<UInt8>) -> CellStatus {
        var d = Decimal()
        guard scanCell(p, lineEnd, &d, &cellEnd) != nil else {
            return p == cellEnd ? .empty : nonNumberStatus(p, cellEnd)
        }
        if let fast = fastDouble(d) { value = fast; return .number }
        value = libcStrtod(p)
        return value.isFinite ? .number : .outOfRange
    }

    /// Parses the cell starting at `p` as a correctly rounded Float (see `parseDouble`).
    @inlinable @inline(__always) @_semantics("no_performance_analysis") @_noAllocation
    static func parseFloat(_ p: UnsafePointer<UInt8>, _ lineEnd: UnsafePointer<UInt8>, _ value: inout Float,
                           _ cellEnd: inout UnsafePointer<UInt8>) -> CellStatus {
        var d = Decimal()
        guard scanCell(p, lineEnd, &d, &cellEnd) != nil else {
            return p == cellEnd ? .empty : nonNumberStatus(p, cellEnd)
        }
        if !d.inexact && d.mantissa <= 1 << 53 && d.exponent < 0 && d.exponent >= -22 {
            // Multiply by a rounded 10^-k instead of dividing by 10^k: the product is within
            // 2 Double ulps of the exact value, so unless it lies within a few ulps of a
            // midpoint between Floats, rounding it to Float gives the correct result.
            let approximate = Double(d.mantissa) * negativePowersOfTen[-d.exponent]
            let low = Int64(truncatingIfNeeded: approximate.bitPattern & 0x1FFF_FFFF) &- 0x1000_0000
            let magnitude = approximate
            if (low > 16 || low < -16) && magnitude >= 0x1p-126 && magnitude < 0x1p127 {
                value = Float(d.negative ? -approximate : approximate)
                return .number
            }
        }
        if let fast = fastDouble(d) {
            let magnitude = fast.magnitude
            // Normal Float range, and not exactly halfway between two Floats.
            if magnitude == 0 || (magnitude >= 0x1p-126 && magnitude < 0x1p128
                                  && fast.bitPattern & 0x1FFF_FFFF != 0x1000_0000) {
                value = Float(fast)
                return .number
            }
        }
        value = libcStrtof(p)
        return value.isFinite ? .number : .outOfRange
    }

    /// Scans one cell: the number must end exactly at a `,` or at `lineEnd`. On success
    /// returns the end; otherwise nil, with `cellEnd` at the cell's end either way.
    @inlinable @inline(__always)
    static func scanCell(_ p: UnsafePointer<UInt8>, _ lineEnd: UnsafePointer<UInt8>, _ d: inout Decimal,
                         _ cellEnd: inout UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
        if let stop = scan(p, lineEnd, into: &d), stop == lineEnd || stop.pointee == 0x2C {
            cellEnd = stop
            return stop
        }
        var q = p
        while q < lineEnd && q.pointee != 0x2C { q += 1 }
        cellEnd = q
        return nil
    }

    /// 10^-k rounded to Double.
    @usableFromInline static let negativePowersOfTen: InlineArray<23, Double> = [
        1e-0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11,
        1e-12, 1e-13, 1e-14, 1e-15, 1e-16, 1e-17, 1e-18, 1e-19, 1e-20, 1e-21, 1e-22,
    ]

    /// Distinguishes `nan`/`inf` spellings from other garbage, for the error message.
    @inlinable
    static func nonNumberStatus(_ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> CellStatus {
        var q = p
        if q < end && (q.pointee == UInt8(ascii: "-") || q.pointee == UInt8(ascii: "+")) { q += 1 }
        var word: UInt64 = 0
        var count = 0
        while q < end && count < 8 { word = word << 8 | UInt64(q.pointee | 0x20); q += 1; count += 1 }
        if q != end { return .invalid }
        // "nan", "inf", "infinity"
        if word == 0x6E616E || word == 0x696E66 || word == 0x696E_6669_6E69_7479 { return .nonFinite }
        return .invalid
    }
}

// The C library converters, kept out of the performance analysis like PoiseMath's wrappers.
// They stop at the first byte that is not part of a number (the cell separator).
@inlinable @inline(never)
@_semantics("no_performance_analysis")
func libcStrtod(_ p: UnsafePointer<UInt8>) -> Double {
    p.withMemoryRebound(to: CChar.self, capacity: 1) { strtod($0, nil) }
}

@inlinable @inline(never)
@_semantics("no_performance_analysis")
func libcStrtof(_ p: UnsafePointer<UInt8>) -> Float {
    p.withMemoryRebound(to: CChar.self, capacity: 1) { strtof($0, nil) }
}
