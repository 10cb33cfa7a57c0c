/// Minimum, median, 95th percentile and maximum of some trials' values (nearest rank, so
/// each is one trial's value).
public struct OutcomeDistribution: Sendable, Equatable {
    public var count: Int
    public var minimum, median, p95, maximum: Double

    /// nil for no values.
    public init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        func rank(_ p: Double) -> Double { sorted[max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1)] }
        count = sorted.count
        minimum = sorted[0]
        median = rank(0.5)
        p95 = rank(0.95)
        maximum = sorted[sorted.count - 1]
    }

    var text: String {
        "min \(Formatting.fixed(minimum, 2))  median \(Formatting.fixed(median, 2))  p95 \(Formatting.fixed(p95, 2))  max \(Formatting.fixed(maximum, 2))"
    }

    var json: String {
        "{\"min\": \(Formatting.fixed(minimum, 4)), \"median\": \(Formatting.fixed(median, 4)), \"p95\": \(Formatting.fixed(p95, 4)), \"max\": \(Formatting.fixed(maximum, 4))}"
    }
}
