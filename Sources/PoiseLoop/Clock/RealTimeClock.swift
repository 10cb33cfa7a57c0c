import PoiseFlightCore

/// The board's CLOCK_MONOTONIC with absolute deadlines (``TickScheduler``).
public struct RealTimeClock: LoopClock {
    public static var isRealTime: Bool { true }
    let rateHz: Double
    let period: Int64
    let duration: Double?
    /// CLOCK_MONOTONIC at the first tick's deadline, ns.
    public private(set) var origin: Int64 = 0
    var scheduler: TickScheduler
    public private(set) var stopTime: Double = .infinity

    /// - Parameter duration: stop cleanly after this long on the clock, s; nil runs until a stop request.
    public init(rateHz: Double, duration: Double?) {
        self.rateHz = rateHz
        self.duration = duration
        period = Int64((1e9 / rateHz).rounded())
        scheduler = TickScheduler(periodNanoseconds: period, start: 0)
    }

    public mutating func start() {
        origin = monotonicNanoseconds()
        scheduler = TickScheduler(periodNanoseconds: period, start: origin - period)
        // The duration is time on the loop's clock, not a tick count: deadlines skipped after
        // an overrun do not stretch the run. The last tick is the one scheduled before the end.
        stopTime = duration.map { $0 - 1.5 / rateHz } ?? .infinity
        if stopTime.isFinite {
            // The stopping tick's deadline, the first at or after stopTime: never skipped.
            scheduler.lastDeadline = origin + Int64((stopTime * rateHz).rounded(.up)) * period
        }
    }

    public mutating func waitForNextTick() -> (time: Double, lateness: Int64) {
        let lateness = scheduler.waitForNextTick()
        return (Double(scheduler.deadline - origin) * 1e-9, lateness)
    }

    public func timestamp() -> Int64 { monotonicNanoseconds() }

    public mutating func finishTick(at end: Int64) -> Bool { scheduler.finishTick(at: end) }

    public var nextTickTime: Double { Double(scheduler.deadline + period - origin) * 1e-9 }

    public var skippedDeadlines: Int { scheduler.skippedDeadlines }

    /// Really stops: the next deadline passes while asleep, as in a frozen process.
    public mutating func stall(seconds: Double) {
        sleepUntil(monotonicNanoseconds() + Int64((seconds * 1e9).rounded()))
    }
}
