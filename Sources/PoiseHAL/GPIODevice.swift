
/// How a requested output line drives its pin (libgpiod `GPIOD_LINE_REQUEST_FLAG_OPEN_*`).
public enum GPIODrive: String, Sendable, CaseIterable {
    /// Drives both levels (the default).
    case pushPull = "push_pull"
    /// Drives low only; high floats (a pull-up or the load makes it high).
    case openDrain = "open_drain"
    /// Drives high only; low floats.
    case openSource = "open_source"
}

/// One output line to request: where it is, how it drives, and the level it starts at.
public struct GPIOLineRequest: Sendable, Equatable {
    /// A chip name (`gpiochip0`), number (`0`), path (`/dev/gpiochip0`) or label (`pinctrl-rp1`).
    public var chip: String
    /// Line offset on that chip (on a Raspberry Pi header chip, the BCM GPIO number).
    public var line: UInt32
    /// Logical 1 drives the pin low.
    public var activeLow: Bool
    public var drive: GPIODrive
    /// Logical level the line takes when it is requested (its safe value).
    public var initialValue: Bool
    /// The name `gpioinfo` shows as the line's user.
    public var consumer: String

    public init(chip: String, line: UInt32, activeLow: Bool = false, drive: GPIODrive = .pushPull,
                initialValue: Bool = false, consumer: String = "poise") {
        self.chip = chip
        self.line = line
        self.activeLow = activeLow
        self.drive = drive
        self.initialValue = initialValue
        self.consumer = consumer
    }
}

/// Why a request failed, as the library reported it.
public struct GPIORequestFailure: Error, Sendable, Equatable {
    public var operation: GPIOError.Operation
    public var errno: Errno
    /// The consumer that holds the line when the request failed with `EBUSY`.
    public var holder: String?

    public init(_ operation: GPIOError.Operation, errno: Errno, holder: String? = nil) {
        self.operation = operation
        self.errno = errno
        self.holder = holder
    }
}

/// A handle to a requested line, valid until released. Plain data, so the tick can keep it.
@frozen
public struct GPIOLineHandle: Sendable, Hashable {
    public var rawValue: Int
    @inlinable public init(rawValue: Int) { self.rawValue = rawValue }
}

/// The libgpiod boundary: the only calls Poise makes on GPIO lines.
///
/// ``LinuxGPIODevice`` implements it with libgpiod v1.6; the simulated board implements it
/// by recording levels, and tests use it to force errors. `setValue` runs in the tick, so
/// implementations must not allocate there.
public protocol GPIODevice {
    /// Opens the chip (by name, number, path or label), gets the line and requests it as an
    /// output at `request.initialValue` (`gpiod_chip_open_lookup`, `gpiod_chip_get_line`,
    /// `gpiod_line_request`). On `EBUSY` the failure names the holder (`gpiod_line_consumer`).
    mutating func requestOutput(_ request: GPIOLineRequest) -> Result<GPIOLineHandle, GPIORequestFailure>

    /// Sets the logical level (`gpiod_line_set_value`); returns the error, if any.
    mutating func setValue(_ handle: GPIOLineHandle, _ value: Bool) -> Errno?

    /// Releases the line and closes its chip (`gpiod_line_release`, `gpiod_chip_close`).
    mutating func release(_ handle: GPIOLineHandle)
}
