import Glibc
import Synchronization

/// A thread of its own — never the real-time one — for a reader or watcher that loops until
/// told to stop: the start, stop request and join that the gamepad, the I²C bus reopener, the
/// arming switch and the wheel encoders share. The body keeps what it captures (its owner)
/// alive until it returns, so an owner that is running is never freed under its thread.
final class BackgroundThread: @unchecked Sendable {
    let stopFlag = Atomic<Bool>(false)
    var thread = pthread_t()
    var started = false

    init() {}

    /// ``stop()`` was called: the body's loop condition.
    var stopRequested: Bool { stopFlag.load(ordering: .acquiring) }

    /// Runs `body` on a new thread; it should return soon after ``stopRequested`` turns true.
    func start(_ body: @escaping @Sendable () -> Void) {
        started = true
        let box = Unmanaged.passRetained(Body(body))
        pthread_create(&thread, nil, { raw in
            Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, box.toOpaque())
    }

    /// Asks the body to return and joins its thread; does nothing if not started.
    func stop() {
        guard started else { return }
        started = false
        stopFlag.store(true, ordering: .releasing)
        pthread_join(thread, nil)
    }

    /// The body, boxed to pass through pthread_create's one pointer.
    final class Body: @unchecked Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
