import SystemPackage

/// A fault seen in the tick, as plain data: which channel, and the kernel's error.
public struct OutputFault: Sendable, Equatable {
    /// Index of the channel in the bank's settings.
    public var channel: Int
    public var errno: Errno

    public init(channel: Int, errno: Errno) {
        self.channel = channel
        self.errno = errno
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
