import CGPIOD
import CI2C
import SystemPackage

/// A failed GPIO operation, naming the chip and line.
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

    public var description: String {
        let place = operation == .openChip ? chip : "\(chip) line \(line)"
        var text = "\(operation.rawValue) \(place): \(errno.description) (\(errno.symbolicName))"
        if operation == .openChip, errno == .noSuchFileOrDirectory {
            text += "; list chips with `gpiodetect` (package gpiod)"
        } else if errno == .resourceBusy {
            text += "; another process or kernel driver holds the line (see `gpioinfo`)"
        }
        return text
    }
}

/// One GPIO line driven as an output through libgpiod v1.6.
///
/// The line starts at, and is returned to, its safe value: when released (explicitly or
/// when the value is destroyed) it is set to `safeValue` before the kernel reclaims it.
public struct GPIOOutput: ~Copyable {
    public let chipName: String
    public let offset: UInt32
    /// The level the line takes at start-up and on release.
    public let safeValue: Bool
    private let chip: OpaquePointer
    private let line: OpaquePointer

    /// Requests `line` of `chip` (for example `gpiochip0`, line 17 = BCM GPIO17 on a Pi).
    public init(chip chipName: String, line offset: UInt32, safeValue: Bool = false,
                consumer: String = "poise") throws(GPIOError) {
        func failure(_ operation: GPIOError.Operation) -> GPIOError {
            GPIOError(operation: operation, chip: chipName, line: offset, errno: Errno(rawValue: poise_errno()))
        }
        guard let chip = gpiod_chip_open_by_name(chipName) else { throw failure(.openChip) }
        guard let line = gpiod_chip_get_line(chip, offset) else {
            let error = failure(.getLine)
            gpiod_chip_close(chip)
            throw error
        }
        guard gpiod_line_request_output(line, consumer, safeValue ? 1 : 0) == 0 else {
            let error = failure(.requestOutput)
            gpiod_chip_close(chip)
            throw error
        }
        self.chipName = chipName
        self.offset = offset
        self.safeValue = safeValue
        self.chip = chip
        self.line = line
    }

    /// Drives the line high (`true`) or low.
    public func set(_ value: Bool) throws(GPIOError) {
        guard gpiod_line_set_value(line, value ? 1 : 0) == 0 else {
            throw GPIOError(operation: .setValue, chip: chipName, line: offset, errno: Errno(rawValue: poise_errno()))
        }
    }

    /// Sets the safe value, releases the line and closes the chip.
    public consuming func release() {
        // Ending the value's lifetime runs `deinit`, which does the work.
    }

    deinit {
        _ = gpiod_line_set_value(line, safeValue ? 1 : 0)
        gpiod_line_release(line)
        gpiod_chip_close(chip)
    }
}
