import CPoiseRealtime
#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#endif
import Synchronization

/// One of the link's threads (the sender's, the receiver's) at ordinary priority, never the
/// tick's: started once, asked to stop through a flag its loop polls, and joined.
final class LinkThread: @unchecked Sendable {
    let name: String
    private let stopping = Atomic<Bool>(false)
    private var thread: pthread_t? = nil

    init(name: String) { self.name = name }

    /// True once ``stop()`` was called: the loop finishes what it must and returns.
    var stopRequested: Bool { stopping.load(ordering: .acquiring) }

    /// Runs `loop` on the new thread, named for `top` and the kernel's thread list (15
    /// bytes at most); it returns once ``stopRequested``.
    func start(_ loop: @escaping @Sendable () -> Void) {
        final class Work {
            let name: String
            let loop: @Sendable () -> Void
            init(name: String, loop: @escaping @Sendable () -> Void) { self.name = name; self.loop = loop }
        }
        let work = Unmanaged.passRetained(Work(name: name, loop: loop)).toOpaque()
        var created = pthread_t()
        let result = pthread_create(&created, nil, { raw in
            let work = Unmanaged<Work>.fromOpaque(raw!).takeRetainedValue()
            _ = poise_name_thread(work.name)
            work.loop()
            return nil
        }, work)
        if result == 0 {
            thread = created
        } else {
            Unmanaged<Work>.fromOpaque(work).release()
        }
    }

    /// Asks the loop to stop and waits until it has (nothing to do when never started).
    func stop() {
        guard let thread else { return }
        stopping.store(true, ordering: .releasing)
        pthread_join(thread, nil)
        self.thread = nil
    }
}
