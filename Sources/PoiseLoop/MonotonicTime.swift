import Glibc

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
func sleepUntil(_ deadline: Int64) {
    var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
}
