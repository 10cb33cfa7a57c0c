import Foundation
import Synchronization

/// One of the link's threads (the sender's, the receiver's) at ordinary priority, never the
/// tick's: started once, asked to stop through a flag its loop polls, and waited for.
final class LinkThread: @unchecked Sendable {
    let name: String
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private var thread: Thread?

    init(name: String) { self.name = name }

    /// True once ``stop()`` was called: the loop finishes what it must and returns.
    var stopRequested: Bool { stopping.load(ordering: .acquiring) }

    /// Runs `loop` on the new thread; it returns once ``stopRequested``.
    func start(_ loop: @escaping @Sendable () -> Void) {
        let finished = finished
        let thread = Thread {
            loop()
            finished.signal()
        }
        thread.name = name
        thread.qualityOfService = .utility
        self.thread = thread
        thread.start()
    }

    /// Asks the loop to stop and waits until it has (nothing to do when never started).
    func stop() {
        guard thread != nil else { return }
        stopping.store(true, ordering: .releasing)
        finished.wait()
        thread = nil
    }
}
