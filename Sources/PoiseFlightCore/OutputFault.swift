/// A fault seen in the tick, as plain data: which channel, and the kernel's error number
/// (`errno`; the output backends read it as swift-system's `Errno`). Frozen with an inlinable
/// initialiser: the output banks build one inside their checked tick.
@frozen
public struct OutputFault: Sendable, Equatable {
    /// Index of the channel in the bank's settings.
    public var channel: Int
    /// The `errno` value of the failed call.
    public var errorNumber: Int32

    @inlinable
    public init(channel: Int, errorNumber: Int32) {
        self.channel = channel
        self.errorNumber = errorNumber
    }
}

/// A failure to open, write or make safe an output, naming the channel.
public struct OutputError: Error, CustomStringConvertible, Sendable {
    /// Channel name, or `PCA9685` for the chip itself.
    public var channel: String
    public var place: String
    public var reason: String

    public init(channel: String, place: String, reason: String) {
        self.channel = channel
        self.place = place
        self.reason = reason
    }

    public var description: String { "output \(channel) (\(place)): \(reason)" }
}
