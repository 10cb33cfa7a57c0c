import PoiseFlightCore
import PoiseHAL

// The flight core keeps a fault's error as a plain number (it builds without swift-system);
// the output backends speak `Errno`.
extension OutputFault {
    @inlinable
    init(channel: Int, errno: Errno) {
        self.init(channel: channel, errorNumber: errno.rawValue)
    }

    public var errno: Errno { Errno(rawValue: errorNumber) }
}
