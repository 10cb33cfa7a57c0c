#if !hasFeature(Embedded)
import Glibc
#endif

/// The per-thread allocation counter of Benchmarks/loop/malloc_count.c, when that library is
/// preloaded (`scripts/bench-loop`); nil otherwise. Looked up once, before the loop starts.
/// Host-only: the board binary is static, with no preloaded library to look up (nil there).
struct AllocationCounter {
    typealias Count = @convention(c) () -> Int64
    let read: Count

    static func find() -> AllocationCounter? {
        #if hasFeature(Embedded)
        return nil
        #else
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "poise_thread_malloc_count") else { return nil }
        return AllocationCounter(read: unsafeBitCast(symbol, to: Count.self))
        #endif
    }
}
