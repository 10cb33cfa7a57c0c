import Glibc

/// CLOCK_MONOTONIC in nanoseconds: the loop's clock.
@inline(__always)
public func monotonicNanoseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}
