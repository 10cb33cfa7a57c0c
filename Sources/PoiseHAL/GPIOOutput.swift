
/// A failed GPIO operation, naming the chip, the line and, for a busy line, its holder.
public struct GPIOError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Operation: String, Sendable {
        case openChip = "open chip"
        case getLine = "get line"
        case requestOutput = "request as output"
        case setValue = "set value of"
    }
    public var operation: Operation
    public var chip: String
    public var line: UInt32
    public var errno: Errno
    /// Who holds the line, when a request failed because it is busy.
    public var holder: String?

    public init(operation: Operation, chip: String, line: UInt32, errno: Errno, holder: String? = nil) {
        self.operation = operation
        self.chip = chip
        self.line = line
        self.errno = errno
        self.holder = holder
    }

    public var description: String {
        let place = operation == .openChip ? chip : "\(chip) line \(line)"
        var text = "\(operation.rawValue) \(place): \(errno.description) (\(errno.symbolicName))"
        if operation == .openChip, errno == .noSuchFileOrDirectory {
            text += "; list chips and their labels with `gpiodetect` (package gpiod)"
        } else if errno == .resourceBusy {
            text += "; the line is held by \(holder.map { "\"\($0)\"" } ?? "another user") (see `gpioinfo \(chip)`)"
        } else if errno == .permissionDenied {
            text += "; add the user to group gpio or run with sudo"
        }
        return text
    }
}

/// One GPIO output line of a ``GPIODevice``: requested at its safe value, written only when
/// its level changes, and set back to the safe value before it is released.
///
/// Plain data holding the device's handle; the owner (the output bank) keeps the device and
/// passes it in, so one device serves every line without reference types in the tick.
public struct GPIOOutput: Sendable {
    public let request: GPIOLineRequest
    public let handle: GPIOLineHandle
    /// The level the line takes at start-up and on release.
    public var safeValue: Bool { request.initialValue }

    /// Requests the line as an output at `request.initialValue`.
    public init(_ request: GPIOLineRequest, device: inout some GPIODevice) throws(GPIOError) {
        switch device.requestOutput(request) {
        case .success(let handle):
            self.request = request
            self.handle = handle
        case .failure(let failure):
            throw GPIOError(operation: failure.operation, chip: request.chip, line: request.line,
                            errno: failure.errno, holder: failure.holder)
        }
    }

    /// Sets the logical level; in the tick, returns the error instead of throwing.
    @inlinable
    public func set(_ value: Bool, device: inout some GPIODevice) -> Errno? {
        device.setValue(handle, value)
    }

    /// The error `set` returned, as a message (outside the tick).
    public func error(_ errno: Errno) -> GPIOError {
        GPIOError(operation: .setValue, chip: request.chip, line: request.line, errno: errno)
    }

    /// Sets the safe value, then releases the line and closes its chip.
    public func release(device: inout some GPIODevice) {
        _ = device.setValue(handle, safeValue)
        device.release(handle)
    }
}
