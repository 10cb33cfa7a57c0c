
/// A failed PWM sysfs operation, naming the file and saying what to do where possible.
public struct PWMError: Error, CustomStringConvertible, Sendable, Equatable {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// Writing `text` to `path` failed with `errno`.
    public init(path: String, writing text: String, errno: Errno) {
        var message = "cannot write \"\(text)\": \(errno.description) (\(errno.symbolicName))"
        if errno == .permissionDenied {
            message += "; add the user to group gpio (udev gives it the PWM files) or run with sudo"
        } else if errno == .invalidArgument {
            message += "; the driver rejected the value (duty cycle above the period, or a period the chip cannot make)"
        } else if errno == .resourceBusy {
            message += "; the channel is in use (another process exported it, or it must be disabled first)"
        }
        self.init(path: path, message: message)
    }

    /// Opening `path` failed with `errno`.
    public init(path: String, opening errno: Errno) {
        var message = "cannot open: \(errno.description) (\(errno.symbolicName))"
        if errno == .permissionDenied { message += "; add the user to group gpio or run with sudo" }
        self.init(path: path, message: message)
    }

    public var description: String { "\(path): \(message)" }
}
