/// A switch's contacts bounce for a few milliseconds: a level counts once it has held for
/// the debounce time with no other edge. The same rule for the libgpiod edge watcher and the
/// simulated switch line.
public struct SwitchDebouncer: Sendable, Equatable {
    public let holdTime: Double
    /// The level that has held for `holdTime`.
    public private(set) var level: Bool
    var raw: Bool
    var since: Double

    /// - Parameter initial: the line's level at start, taken as settled.
    public init(holdTime: Double, initial: Bool, at time: Double) {
        self.holdTime = holdTime
        level = initial
        raw = initial
        since = time
    }

    /// The line read `raw` at `time` (s, rising); returns the debounced level.
    @discardableResult
    public mutating func update(_ raw: Bool, at time: Double) -> Bool {
        if raw != self.raw {
            self.raw = raw
            since = time
        }
        if raw != level && time - since >= holdTime { level = raw }
        return level
    }

    /// When the pending level (if any) will count, s; nil when the line is settled.
    public var settlesAt: Double? { raw == level ? nil : since + holdTime }
}
