/// Tick marks for an axis at "nice" steps: 1, 2 or 5 times a power of ten.
///
/// ```swift
/// let ticks = AxisTicks(covering: -0.37...9.2, targetCount: 6)
/// // ticks.step == 2, ticks.lower == -2, ticks.upper == 10, ticks.values == [-2, 0, 2, 4, 6, 8, 10]
/// ```
public struct AxisTicks: Sendable, Equatable {
    /// First tick, ≤ the range's lower bound.
    public var lower: Double
    /// Last tick, ≥ the range's upper bound.
    public var upper: Double
    /// Distance between ticks.
    public var step: Double
    /// Tick positions from `lower` to `upper`.
    public var values: [Double]

    /// Ticks covering `range` with about `targetCount` intervals (at least 1).
    ///
    /// A degenerate range (`lower == upper`) is widened around its value; non-finite bounds
    /// give the range 0…1.
    public init(covering range: ClosedRange<Double>, targetCount: Int = 6) {
        var lo = range.lowerBound, hi = range.upperBound
        if !lo.isFinite || !hi.isFinite {
            lo = 0
            hi = 1
        }
        // Beyond ±1e300 spans and paddings could overflow; nothing real is plotted there.
        lo = Swift.min(Swift.max(lo, -1e300), 1e300)
        hi = Swift.min(Swift.max(hi, -1e300), 1e300)
        if hi - lo <= Swift.max(abs(lo), abs(hi)) * 1e-12 {
            let pad = lo == 0 ? 1 : abs(lo) * 0.1
            lo -= pad
            hi += pad
        }
        let step = Self.niceStep(for: (hi - lo) / Double(Swift.max(targetCount, 1)))
        self.init(lower: lo, upper: hi, step: step)
    }

    /// Ticks at multiples of a step you choose (e.g. 90 for angles in degrees).
    public init(covering range: ClosedRange<Double>, step: Double) {
        let safeStep = step > 0 && step.isFinite ? step : 1
        self.init(lower: range.lowerBound, upper: range.upperBound, step: safeStep)
    }

    private init(lower lo: Double, upper hi: Double, step: Double) {
        let first = (lo / step).rounded(.down)
        let last = (hi / step).rounded(.up)
        let span = last - first
        let count = span.isFinite ? Int(Swift.min(Swift.max(span, 1), 10_000)) : 1
        self.step = step
        self.lower = first * step
        self.upper = (first + Double(count)) * step
        // Each value from its index, so no error accumulates; snap −0 and 1e-17 to 0.
        values = (0...count).map { k in
            let v = (first + Double(k)) * step
            return abs(v) < step * 1e-9 ? 0 : v
        }
    }

    /// The smallest of 1, 2, 5 × 10ᵏ that is ≥ `raw`.
    public static func niceStep(for raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        var magnitude = 1.0
        while magnitude > raw { magnitude /= 10 }
        while magnitude * 10 <= raw { magnitude *= 10 }
        // Now magnitude ≤ raw < 10·magnitude.
        for factor in [1.0, 2, 5, 10] where factor * magnitude >= raw * (1 - 1e-12) {
            return factor * magnitude
        }
        return 10 * magnitude
    }

    /// Decimal places needed to print values at this step exactly (0 for steps ≥ 1).
    public var decimals: Int {
        var places = 0
        var scaled = step
        while places < 12, abs(scaled - scaled.rounded()) > 1e-6 * Swift.max(1, abs(scaled)) {
            scaled *= 10
            places += 1
        }
        return places
    }

    /// A label for a tick value: fixed decimals matching the step, e.g. `-0.25`, `100`.
    public func label(for value: Double) -> String {
        SVGFormat.fixed(value, decimals: decimals)
    }
}
