import Glibc

/// The per-thread allocation counter of Benchmarks/loop/malloc_count.c, when that library is
/// preloaded (`scripts/bench-loop`); nil otherwise. Looked up once, before the loop starts.
struct AllocationCounter {
    typealias Count = @convention(c) () -> Int64
    let read: Count

    static func find() -> AllocationCounter? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "poise_thread_malloc_count") else { return nil }
        return AllocationCounter(read: unsafeBitCast(symbol, to: Count.self))
    }
}
