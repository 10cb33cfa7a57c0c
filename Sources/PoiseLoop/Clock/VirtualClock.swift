/// Simulated time: tick n is at n / rate, no waiting, no host timings. A simulated board
/// on this clock gives a run that depends only on its configuration.
public struct VirtualClock: LoopClock {
    public static var isRealTime: Bool { false }
    let rateHz: Double
    let ticks: Int
    var index = -1
    /// How late the next tick wakes after a rehearsed stall, ns.
    var pendingLateness: Int64 = 0

    /// `duration` s of ticks at `rateHz`; the last of them is the stopping tick.
    public init(rateHz: Double, duration: Double) {
        self.rateHz = rateHz
        ticks = Int((duration * rateHz).rounded())
    }

    public mutating func start() { index = -1 }

    public mutating func waitForNextTick() -> (time: Double, lateness: Int64) {
        index += 1
        defer { pendingLateness = 0 }
        return (Double(index) / rateHz, pendingLateness)
    }

    public func timestamp() -> Int64 { 0 }

    public mutating func finishTick(at end: Int64) -> Bool { false }

    public var nextTickTime: Double { Double(index + 1) / rateHz }

    public var stopTime: Double { Double(ticks - 1) / rateHz }

    public var skippedDeadlines: Int { 0 }

    /// Jumps: the next tick comes `seconds` (rounded to whole periods) later than due, and
    /// says it woke that late; the world moves through the gap under the last outputs.
    public mutating func stall(seconds: Double) {
        let periods = Int((seconds * rateHz).rounded())
        index += periods
        pendingLateness += Int64((Double(periods) / rateHz * 1e9).rounded())
    }
}
