/// The physical value of every configured output channel for one tick, in config order.
///
/// PWM and PCA9685 channels carry the high time of one period in nanoseconds; GPIO lines
/// carry the logical level, 0 or 1 (active-low is applied by the line, not here). Fixed
/// size so the tick can build one without allocating.
@frozen
public struct ChannelCommands: Sendable, Equatable {
    /// The most channels a configuration may declare.
    public static let capacity = 16
    /// Channels in use, `0...capacity`.
    public var count: Int
    public var values: InlineArray<16, UInt32>

    @inlinable
    public init(count: Int = 0) {
        self.count = count
        values = InlineArray(repeating: 0)
    }

    @inlinable
    public subscript(_ channel: Int) -> UInt32 {
        get { values[channel] }
        set { values[channel] = newValue }
    }

    @inlinable
    public static func == (a: ChannelCommands, b: ChannelCommands) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where a.values[i] != b.values[i] { return false }
        return true
    }
}
