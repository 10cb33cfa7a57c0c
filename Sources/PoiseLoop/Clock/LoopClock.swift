/// Where the loop's ticks come from: the board's real clock, sleeping to each deadline
/// (`RealTimeClock`), or simulated time run as fast as the machine goes (`VirtualClock`).
/// ``LiveLoop`` is one loop over either, so `poise run` and `poise simulate` tick the same way.
///
/// Times are s since the loop's first tick, on the tick grid; host timestamps (ns) time the
/// tick's parts for the statistics and are 0 on a virtual clock, so nothing host-dependent
/// reaches a simulated run's records.
public protocol LoopClock {
    /// True when ticks follow the host's clock (real-time set-up, timings, overruns).
    static var isRealTime: Bool { get }
    /// Starts the schedule; the first tick is at time 0.
    mutating func start()
    /// Waits until the next tick is due: its scheduled time (s) and how late the wake-up
    /// was (ns, 0 on a virtual clock).
    mutating func waitForNextTick() -> (time: Double, lateness: Int64)
    /// A host timestamp for timing the tick's parts, ns (0 on a virtual clock).
    func timestamp() -> Int64
    /// The host timestamp of time 0 (the first tick's schedule), ns; 0 on a virtual clock.
    var origin: Int64 { get }
    /// The tick's work ended at `end` (a ``timestamp()``): true when it overran the period.
    mutating func finishTick(at end: Int64) -> Bool
    /// The scheduled time of the next tick, s: where a simulated world is moved between ticks.
    var nextTickTime: Double { get }
    /// The scheduled time at or after which a bounded run takes its stopping tick, s
    /// (`.infinity` for a run that ends only on a signal).
    var stopTime: Double { get }
    /// Deadlines skipped after overruns.
    var skippedDeadlines: Int { get }
    /// The host stops for `seconds` before the next tick (a rehearsed stall): a real clock
    /// sleeps that long, a virtual one jumps, and the next tick wakes that late.
    mutating func stall(seconds: Double)
}

extension LoopClock {
    /// Clocks that cannot stall (test clocks) ignore it.
    public mutating func stall(seconds: Double) {}
    /// Clocks without a host time base (test clocks) start at 0.
    public var origin: Int64 { 0 }
}
