#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
// The clock is the OS's: there through Glibc on the host and PoiseLibc on the board.
#if hasFeature(Embedded) || canImport(Glibc) || canImport(Darwin)

/// CLOCK_MONOTONIC in seconds: for summaries and the loop's schedule, never for output data.
public enum MonotonicClock {
    @inlinable
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}

// The loop's clock. The two system calls are excluded from performance analysis so the
// checked tick may make them: neither allocates nor locks in the process (vDSO / syscall).

/// CLOCK_MONOTONIC in nanoseconds.
@inline(never) @_semantics("no_performance_analysis")
public func monotonicNanoseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}

/// Sleeps until `deadline` (CLOCK_MONOTONIC ns) with TIMER_ABSTIME, through EINTR.
@inline(never) @_semantics("no_performance_analysis")
public func sleepUntil(_ deadline: Int64) {
    var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
}
#endif
