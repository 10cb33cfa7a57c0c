#if hasFeature(Embedded)
import CPoiseRealtime
#else
import Glibc
#endif

/// The per-thread allocation counter of Benchmarks/loop/malloc_count.c, when that library is
/// preloaded (`scripts/bench-loop`); nil otherwise. Looked up once, before the loop starts.
/// The board binary is static, with no preloaded library to look up: it counts through the
/// C library's allocator wrapped at link time (scripts/board/allocation_count.c), always.
struct AllocationCounter {
    typealias Count = @convention(c) () -> Int64
    let read: Count

    static func find() -> AllocationCounter? {
        #if hasFeature(Embedded)
        return AllocationCounter(read: { poise_board_thread_allocations() })
        #else
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "poise_thread_malloc_count") else { return nil }
        return AllocationCounter(read: unsafeBitCast(symbol, to: Count.self))
        #endif
    }
}
