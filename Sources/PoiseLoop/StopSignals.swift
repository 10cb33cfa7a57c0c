#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#else
import Glibc
#endif
import PoiseThreads
import Synchronization

/// SIGINT, SIGTERM and SIGHUP, taken by a thread of their own with `sigwait`.
///
/// The signals are blocked in every thread (call ``blockInProcess()`` before starting any),
/// so no handler ever runs on the real-time thread; the watcher sets flags the tick reads
/// with one relaxed atomic load. SIGHUP's `onReload` (reading and parsing a file) runs on a
/// reload thread of its own, so the watcher is always free to take SIGINT/SIGTERM at once.
public final class StopSignals: @unchecked Sendable {
    let stopFlag = Atomic<Bool>(false)
    /// The signal that asked to stop, 0 if none (or a stop for another reason).
    let stopSignal = Atomic<Int32>(0)
    /// Posted once per SIGHUP; the reload thread waits on it.
    let reloadRequests: UnsafeMutablePointer<sem_t> = {
        let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
        return semaphore
    }()
    var onReload: @Sendable () -> Void = {}

    public init() {}

    /// Blocks SIGINT, SIGTERM and SIGHUP in the calling thread and every thread it starts.
    public static func blockInProcess() {
        var set = Self.set()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    static func set() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGHUP)
        return set
    }

    /// Starts the watcher thread. A SIGINT or SIGTERM already pending (sent while the signals
    /// were blocked, before anyone waited for them) stops the work before it begins, so a stop
    /// never depends on which thread runs first.
    public func start(onReload: @escaping @Sendable () -> Void) {
        self.onReload = onReload
        var pending = sigset_t()
        sigpending(&pending)
        for stop in [SIGTERM, SIGINT] where sigismember(&pending, stop) == 1 {
            stopSignal.store(stop, ordering: .relaxed)
            stopFlag.store(true, ordering: .releasing)
        }
        // Both live as long as the process (sigwait and sem_wait never give up): detached.
        WorkerThread(name: "poise-signals").start(detached: true) { [self] in watch() }
        WorkerThread(name: "poise-reload").start(detached: true) { [self] in
            while true {
                guard sem_wait(reloadRequests) == 0 else { continue }
                onReload()
            }
        }
    }

    func watch() {
        var set = Self.set()
        while true {
            var signal: Int32 = 0
            guard sigwait(&set, &signal) == 0 else { continue }
            if signal == SIGHUP {
                sem_post(reloadRequests)
            } else {
                stopSignal.store(signal, ordering: .relaxed)
                // A second signal changes nothing: the stop already makes the outputs safe
                // within a tick, and exiting early could leave them driven.
                stopFlag.store(true, ordering: .releasing)
            }
        }
    }

    /// True once a stop was asked for.
    @inline(__always)
    public var stopRequested: Bool { stopFlag.load(ordering: .relaxed) }

    /// Asks the loop to stop (end of `--duration`, the library's `stop()`).
    public func requestStop() { stopFlag.store(true, ordering: .releasing) }

    /// SIGINT or SIGTERM if one stopped the loop.
    public var signal: Int32 { stopSignal.load(ordering: .relaxed) }
}
