/// Lateness and compute-time percentiles over the ticks since the last report.
///
/// Lives on the telemetry thread (it may allocate); keeps at most `capacity` recent ticks.
public struct LoopStatistics: Sendable {
    public struct Summary: Sendable, Equatable {
        /// Nanoseconds.
        public var latenessP50: Int64, latenessP99: Int64, latenessMax: Int64
        public var computeP50: Int64, computeP99: Int64, computeMax: Int64
        /// Mean compute time over the mean tick period, 0…1 (0 with fewer than two ticks).
        public var load: Double
        public var ticks: Int
    }

    public let capacity: Int
    var lateness: [Int64] = []
    var compute: [Int64] = []
    var next = 0
    var firstTime = 0.0, lastTime = 0.0, seen = 0

    public init(capacity: Int = 8192) {
        self.capacity = capacity
        lateness.reserveCapacity(capacity)
        compute.reserveCapacity(capacity)
    }

    public mutating func add(latenessNanoseconds: Int64, computeNanoseconds: Int64, time: Double) {
        if lateness.count < capacity {
            lateness.append(latenessNanoseconds)
            compute.append(computeNanoseconds)
        } else {
            lateness[next] = latenessNanoseconds
            compute[next] = computeNanoseconds
            next = (next + 1) % capacity
        }
        if seen == 0 { firstTime = time }
        lastTime = time
        seen += 1
    }

    /// The summary of the ticks added since the last call, which starts a new window.
    public mutating func take() -> Summary {
        let late = lateness.sorted(), comp = compute.sorted()
        func rank(_ sorted: [Int64], _ p: Double) -> Int64 {
            sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((p * Double(sorted.count - 1)).rounded()))]
        }
        var load = 0.0
        if seen > 1, lastTime > firstTime, !comp.isEmpty {
            let period = (lastTime - firstTime) / Double(seen - 1)
            let meanCompute = Double(comp.reduce(0, +)) / Double(comp.count) * 1e-9
            load = meanCompute / period
        }
        let summary = Summary(latenessP50: rank(late, 0.5), latenessP99: rank(late, 0.99), latenessMax: late.last ?? 0,
                              computeP50: rank(comp, 0.5), computeP99: rank(comp, 0.99), computeMax: comp.last ?? 0,
                              load: load, ticks: seen)
        lateness.removeAll(keepingCapacity: true)
        compute.removeAll(keepingCapacity: true)
        next = 0
        seen = 0
        return summary
    }
}
