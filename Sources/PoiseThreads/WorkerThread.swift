import CPoiseRealtime
#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The one way the project starts a long-lived thread: a named worker running a closure at
/// ordinary priority — a reader, a watcher, a reporter, the library's loop (which raises its
/// own priority and pins itself from inside: `RealtimeSetup`) — started once, asked to stop
/// through a flag its loop polls, and joined.
///
/// The name (15 bytes at most, longer is cut) shows in `top -H` and the kernel's thread list.
/// The closure keeps what it captures (its owner) alive until it returns, so an owner whose
/// thread runs is never freed under it.
public final class WorkerThread: @unchecked Sendable {
    public let name: String
    private let stopping = Atomic<Bool>(false)
    private var thread: pthread_t? = nil

    public init(name: String) { self.name = name }

    #if hasFeature(Embedded)
    /// The stack each worker of the board program gets, 256 KiB, instead of glibc's default
    /// (the stack rlimit, 8 MiB). A worker's frames are a few kilobytes (no recursion); a
    /// stack smaller than 2 MiB also cannot be backed by a transparent huge page, which a
    /// kernel with THP "always" (Debian's) would otherwise put under a thread's first
    /// touched stack page: 2 MiB resident per thread.
    static let boardStackBytes = 256 * 1024
    #endif

    /// True once ``stop()`` was called: the loop finishes what it must and returns.
    public var stopRequested: Bool { stopping.load(ordering: .acquiring) }

    /// Whether ``start(detached:_:)`` started a thread that was not joined yet.
    public var isRunning: Bool { thread != nil }

    /// Runs `body` on a new thread. Returns 0, or the error number pthread_create gave (the
    /// thread was not started, `body` was released).
    ///
    /// - Parameter detached: a thread that lives as long as the process (a signal watcher):
    ///   never joined, its resources go back when it ends; ``stop()`` and ``join()`` do nothing.
    @discardableResult
    public func start(detached: Bool = false, _ body: @escaping @Sendable () -> Void) -> Int32 {
        let work = Unmanaged.passRetained(WorkerBody(name: name, body: body)).toOpaque()
        var created = pthread_t()
        let entry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { raw in
            let work = Unmanaged<WorkerBody>.fromOpaque(raw!).takeRetainedValue()
            _ = poise_name_thread(work.name)
            work.body()
            return nil
        }
        #if hasFeature(Embedded)
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, Self.boardStackBytes)
        let result = pthread_create(&created, &attributes, entry, work)
        pthread_attr_destroy(&attributes)
        #else
        let result = pthread_create(&created, nil, entry, work)
        #endif
        guard result == 0 else {
            Unmanaged<WorkerBody>.fromOpaque(work).release()
            return result
        }
        if detached { pthread_detach(created) } else { thread = created }
        return 0
    }

    /// Asks the loop to stop (``stopRequested``) and waits until it has returned; nothing to
    /// do when never started.
    public func stop() {
        guard thread != nil else { return }
        stopping.store(true, ordering: .releasing)
        join()
    }

    /// Waits until the body has returned, for an owner that tells it to return its own way.
    public func join() {
        guard let thread else { return }
        pthread_join(thread, nil)
        self.thread = nil
    }
}

/// What a new thread runs: its name and its closure, handed over retained through
/// pthread_create's one pointer. At file scope and usable from inlinable code: Embedded Swift
/// specialises across modules and needs the class's definition there.
@usableFromInline final class WorkerBody {
    let name: String
    let body: @Sendable () -> Void
    init(name: String, body: @escaping @Sendable () -> Void) { self.name = name; self.body = body }
}
