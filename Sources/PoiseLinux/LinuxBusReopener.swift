#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#endif
import PoiseFlightCore
import PoiseHAL
import PoiseThreads
import Synchronization

/// Whether the sensor's bus is failing, handed from the tick (which knows each transfer's
/// outcome) to the reopener's thread: one relaxed atomic store per tick, never a wait.
public final class I2CBusHealth: Sendable {
    let failingFlag = Atomic<Bool>(false)

    public init() {}

    /// The tick's side: a failed read sets it, a successful running read clears it; ticks
    /// without a transfer (re-initialisation waits) leave it as it was.
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public func report(failing: Bool) { failingFlag.store(failing, ordering: .relaxed) }

    public var failing: Bool { failingFlag.load(ordering: .relaxed) }
}

/// Reopens the sensor's I²C bus while it keeps failing, with backoff (``I2CReopenBackoff``:
/// 0.1 s doubling to 5 s), on a thread of its own — never the real-time one, since opening a
/// device file may block. A bus whose adapter went away and came back (a module reloaded, a
/// USB adapter re-plugged) works again under the same descriptor; the driver's own
/// re-initialisation then recovers the sensor. Each episode is logged once, each failed try
/// with its errno.
public final class LinuxBusReopener: @unchecked Sendable {
    let bus: LinuxI2CBus
    let health: I2CBusHealth
    let log: @Sendable (String) -> Void
    var backoff: I2CReopenBackoff
    var episode = false
    let thread = WorkerThread(name: "poise-i2c-retry")

    /// `bus` is a copy of the driver's (same path and descriptor); `log` prints a line.
    public init(bus: LinuxI2CBus, health: I2CBusHealth, backoff: I2CReopenBackoff = I2CReopenBackoff(),
                log: @escaping @Sendable (String) -> Void) {
        self.bus = bus
        self.health = health
        self.backoff = backoff
        self.log = log
    }

    deinit { stop() }

    /// One look at the bus at `now` (s, any monotonic clock): reopens it when due.
    public func step(now: Double) {
        let failing = health.failing
        guard backoff.shouldTry(failing: failing, at: now) else {
            if !failing && episode {
                episode = false
                log("I²C bus \(bus.path) works again")
            }
            return
        }
        if !episode {
            episode = true
            log("I²C bus \(bus.path) keeps failing: reopening it (every \(backoff.initial) s, doubling to \(backoff.maximum) s)")
        }
        switch bus.reopen() {
        case .success:
            backoff.tried(at: now)
            log("reopened \(bus.path) (try \(backoff.attempts))")
        case .failure(let error):
            let wait = backoff.wait
            backoff.tried(at: now)
            log("reopening \(bus.path) failed: \(error.errno.description) (\(error.errno.symbolicName)); next try in \(wait) s")
        }
    }

    /// Starts the thread (a look every 50 ms).
    public func start() {
        thread.start { [self] in
            while !thread.stopRequested {
                step(now: Double(monotonicNanoseconds()) * 1e-9)
                usleep(50_000)
            }
        }
    }

    /// Stops and joins the thread (within its 50 ms poll).
    public func stop() {
        thread.stop()
    }
}
