#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#else
import Glibc
#endif
import PoiseFlightCore

/// Absolute-time tick deadlines on CLOCK_MONOTONIC.
///
/// Each deadline is the previous one plus the period (never "now + period"), slept to with
/// `clock_nanosleep(TIMER_ABSTIME)`, so the rate does not drift with compute time. When a
/// tick runs past the next deadline the missed slots are skipped — the schedule re-anchors
/// on its own grid instead of firing a burst of catch-up ticks — and counted.
public struct TickScheduler: Sendable {
    public let periodNanoseconds: Int64
    /// The deadline of the tick in progress, ns.
    public private(set) var deadline: Int64
    /// Deadlines skipped because a tick overran them.
    public private(set) var skippedDeadlines = 0
    /// The last deadline of a bounded run, ns: an overrun near the end never skips it, so the
    /// run still ends with its stopping tick there (late) rather than past the end.
    public var lastDeadline: Int64 = .max

    public init(periodNanoseconds: Int64, start: Int64) {
        self.periodNanoseconds = periodNanoseconds
        deadline = start
    }

    /// Sleeps until the next deadline; returns how late the wake-up was, ns (≥ 0).
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func waitForNextTick() -> Int64 {
        deadline += periodNanoseconds
        sleepUntil(deadline)
        return max(0, monotonicNanoseconds() - deadline)
    }

    /// Called when the tick's work is done at `now`: true when it ran past the next deadline
    /// (an overrun); the deadlines it ran past are skipped.
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func finishTick(at now: Int64) -> Bool {
        let next = deadline + periodNanoseconds
        guard now > next else { return false }
        let behind = min((now - deadline) / periodNanoseconds,
                         max((lastDeadline - deadline) / periodNanoseconds - 1, 0))
        skippedDeadlines += Int(behind)
        deadline += behind * periodNanoseconds
        return true
    }
}
