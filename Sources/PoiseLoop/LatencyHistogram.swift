/// A fixed-size histogram of nanosecond durations for the tick: 32 sub-buckets per power of
/// two (values within ≈3 %), exact below 32 ns, up to ≈ 2^40 ns (18 min). Recording is a few
/// integer operations; no allocation, no locks.
public struct LatencyHistogram: Sendable, BitwiseCopyable {
    public static let bucketCount = 1216
    var counts: InlineArray<1216, UInt32>
    public private(set) var total: UInt64 = 0
    public private(set) var maximum: Int64 = 0

    public init() { counts = InlineArray(repeating: 0) }

    @inline(__always)
    static func bucket(_ value: Int64) -> Int {
        let v = UInt64(max(value, 0))
        if v < 32 { return Int(v) }
        let msb = 63 - v.leadingZeroBitCount
        let shift = msb - 5
        let sub = Int((v >> UInt64(shift)) & 31)
        return min((shift + 1) * 32 + sub, bucketCount - 1)
    }

    /// The lowest value of bucket `index`.
    static func lowerBound(_ index: Int) -> Int64 {
        if index < 32 { return Int64(index) }
        let shift = index / 32 - 1, sub = index % 32
        return Int64(32 + sub) << Int64(shift)
    }

    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func record(_ value: Int64) {
        counts[Self.bucket(value)] &+= 1
        total &+= 1
        if value > maximum { maximum = value }
    }

    /// The value at quantile `q` (0…1): the middle of the bucket that holds it, never above
    /// the maximum seen. 0 when empty.
    public func value(atQuantile q: Double) -> Int64 {
        guard total > 0 else { return 0 }
        let rank = UInt64((q * Double(total)).rounded(.up))
        var seen: UInt64 = 0
        for index in 0..<Self.bucketCount {
            seen += UInt64(counts[index])
            if seen >= max(rank, 1) {
                let low = Self.lowerBound(index)
                let high = index + 1 < Self.bucketCount ? Self.lowerBound(index + 1) : low
                return min(low + (high - low) / 2, maximum)
            }
        }
        return maximum
    }

    /// Adds another histogram's counts.
    public mutating func merge(_ other: LatencyHistogram) {
        for index in 0..<Self.bucketCount { counts[index] &+= other.counts[index] }
        total &+= other.total
        maximum = max(maximum, other.maximum)
    }
}
