/// When to try reopening an I²C bus that keeps failing: the first try once it has failed for
/// `initial` seconds, then after waits that double up to `maximum` — often enough to recover
/// quickly from a bus that comes back (a re-plugged adapter, a reloaded module), rarely
/// enough that a bus that stays gone costs nothing. Plain data in seconds on any clock, so
/// tests step it in virtual time.
public struct I2CReopenBackoff: Sendable, Equatable {
    public var initial: Double
    public var maximum: Double
    /// The wait before the next try after a failed one, s.
    public private(set) var wait: Double
    /// When the bus started failing (nil: healthy), and when the next try is due.
    public private(set) var failingSince: Double? = nil
    public private(set) var nextTry: Double? = nil
    /// Tries since the bus started failing.
    public private(set) var attempts = 0

    public init(initial: Double = 0.1, maximum: Double = 5) {
        self.initial = initial
        self.maximum = maximum
        wait = initial
    }

    /// Told at `now` whether the bus is failing; true when a reopen should be tried now.
    public mutating func shouldTry(failing: Bool, at now: Double) -> Bool {
        guard failing else {
            failingSince = nil
            nextTry = nil
            attempts = 0
            wait = initial
            return false
        }
        if failingSince == nil {
            failingSince = now
            nextTry = now + initial
        }
        guard let due = nextTry, now >= due else { return false }
        return true
    }

    /// A try was made at `now`: the next one waits twice as long (at most `maximum`) — also
    /// after a reopen that succeeded, since only reads that work again end the episode.
    public mutating func tried(at now: Double) {
        attempts += 1
        nextTry = now + wait
        wait = min(wait * 2, maximum)
    }
}
