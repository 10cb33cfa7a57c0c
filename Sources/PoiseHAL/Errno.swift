#if canImport(Glibc)
import Glibc
#endif

/// The kernel's error number, as a system call left it in `errno`.
///
/// The project's own, not swift-system's: the hardware layer builds in Embedded Swift for the
/// board, where swift-system does not. The numbers are Linux's (the same on x86-64 and
/// aarch64), named as swift-system names them.
@frozen
public struct Errno: RawRepresentable, Error, Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    public var rawValue: CInt

    @inlinable
    public init(rawValue: CInt) { self.rawValue = rawValue }

    public static var notPermitted: Errno { Errno(rawValue: 1) }
    public static var noSuchFileOrDirectory: Errno { Errno(rawValue: 2) }
    public static var interrupted: Errno { Errno(rawValue: 4) }
    public static var ioError: Errno { Errno(rawValue: 5) }
    public static var noSuchAddressOrDevice: Errno { Errno(rawValue: 6) }
    public static var badFileDescriptor: Errno { Errno(rawValue: 9) }
    public static var resourceTemporarilyUnavailable: Errno { Errno(rawValue: 11) }
    public static var permissionDenied: Errno { Errno(rawValue: 13) }
    public static var resourceBusy: Errno { Errno(rawValue: 16) }
    public static var fileExists: Errno { Errno(rawValue: 17) }
    /// `ENODEV`.
    public static var operationNotSupportedByDevice: Errno { Errno(rawValue: 19) }
    public static var invalidArgument: Errno { Errno(rawValue: 22) }
    public static var inappropriateIOCTLForDevice: Errno { Errno(rawValue: 25) }
    public static var noSpace: Errno { Errno(rawValue: 28) }
    public static var brokenPipe: Errno { Errno(rawValue: 32) }
    public static var protocolError: Errno { Errno(rawValue: 71) }
    public static var notSupported: Errno { Errno(rawValue: 95) }
    public static var timedOut: Errno { Errno(rawValue: 110) }
    /// `EREMOTEIO`: the target did not acknowledge (NACK).
    public static var remoteIO: Errno { Errno(rawValue: 121) }

    /// The errors an I²C, GPIO or sysfs user meets: C's name and the C library's message.
    static let known: [CInt: (name: String, message: String)] = [
        1: ("EPERM", "Operation not permitted"),
        2: ("ENOENT", "No such file or directory"),
        4: ("EINTR", "Interrupted system call"),
        5: ("EIO", "Input/output error"),
        6: ("ENXIO", "No such device or address"),
        9: ("EBADF", "Bad file descriptor"),
        11: ("EAGAIN", "Resource temporarily unavailable"),
        13: ("EACCES", "Permission denied"),
        16: ("EBUSY", "Device or resource busy"),
        17: ("EEXIST", "File exists"),
        19: ("ENODEV", "No such device"),
        22: ("EINVAL", "Invalid argument"),
        25: ("ENOTTY", "Inappropriate ioctl for device"),
        28: ("ENOSPC", "No space left on device"),
        32: ("EPIPE", "Broken pipe"),
        71: ("EPROTO", "Protocol error"),
        95: ("EOPNOTSUPP", "Operation not supported"),
        110: ("ETIMEDOUT", "Connection timed out"),
        121: ("EREMOTEIO", "Remote I/O error"),
    ]

    /// The C constant's name (`EREMOTEIO`); `errno N` for a number not in the table.
    public var symbolicName: String { Self.known[rawValue]?.name ?? "errno \(rawValue)" }

    /// The C library's message (`Remote I/O error`): the same text on the board as here.
    public var description: String {
        if let known = Self.known[rawValue] { return known.message }
        #if canImport(Glibc)
        if let text = strerror(rawValue) { return String(cString: text) }
        #endif
        return "errno \(rawValue)"
    }
}
