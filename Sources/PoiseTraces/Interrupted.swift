#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls `call` (a `read`/`write`-shaped call: −1 with `errno` on failure) again for as long
/// as it fails with EINTR, a signal arriving before any byte moved. The one place file I/O
/// outside the Linux backend's syscall layer (PoiseLinux/Syscalls.swift) handles EINTR: trace
/// files here, standard output in the CLI. Allocation-free (the closure does not escape).
@inlinable @inline(__always)
public func retryingInterrupted(_ call: () -> Int) -> Int {
    while true {
        let result = call()
        if result >= 0 || errno != EINTR { return result }
    }
}
