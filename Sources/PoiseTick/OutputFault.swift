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
