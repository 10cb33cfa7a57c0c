/// A failed I²C operation: what was attempted, on which device and bus, and the kernel's answer.
///
/// Plain data (no strings or references), so the tick can throw it as cheaply as it could
/// return an errno; the description is built only when asked for and reads like a sentence
/// a user can act on: `read 14 bytes at 0x3B from 0x68 on /dev/i2c-1: Remote I/O error (EREMOTEIO)`.
public struct I2CError: Error, CustomStringConvertible, Sendable, Equatable, BitwiseCopyable {
    /// The operation that failed.
    public enum Operation: Sendable, Equatable, BitwiseCopyable {
        /// Opening the bus device file.
        case open
        /// Querying the adapter's functionality (`I2C_FUNCS`).
        case queryFunctionality
        /// Selecting the target address (`I2C_SLAVE`).
        case selectAddress
        /// Reading `count` bytes starting at `register`.
        case read(count: Int, register: UInt8)
        /// Writing `value` to `register`.
        case write(register: UInt8, value: UInt8)
        /// Writing `count` bytes starting at `register`.
        case writeBlock(count: Int, register: UInt8)
    }

    public var operation: Operation
    /// The 7-bit target address, when the operation had one.
    public var address: UInt8?
    /// The bus device path, for example `/dev/i2c-1`.
    public var bus: I2CBusName
    @usableFromInline var errnoValue: CInt

    /// The kernel's error number.
    public var errno: Errno {
        get { Errno(rawValue: errnoValue) }
        set { errnoValue = newValue.rawValue }
    }

    @inlinable
    public init(_ operation: Operation, address: UInt8?, bus: I2CBusName, errno: Errno) {
        self.operation = operation
        self.address = address
        self.bus = bus
        self.errnoValue = errno.rawValue
    }

    public init(_ operation: Operation, address: UInt8?, bus: String, errno: Errno) {
        self.init(operation, address: address, bus: I2CBusName(bus), errno: errno)
    }

    public var description: String {
        let reason = "\(errno.description) (\(errno.symbolicName))"
        let target = address.map { " from \(hex($0))" } ?? ""
        switch operation {
        case .open:
            return "open \(bus): \(reason)"
        case .queryFunctionality:
            return "query functionality of \(bus): \(reason)"
        case .selectAddress:
            return "select address \(address.map(hex) ?? "?") on \(bus): \(reason)"
        case let .read(count, register):
            let bytes = count == 1 ? "1 byte" : "\(count) bytes"
            return "read \(bytes) at \(hex(register))\(target) on \(bus): \(reason)"
        case let .write(register, value):
            let to = address.map { " of \(hex($0))" } ?? ""
            return "write \(hex(value)) to \(hex(register))\(to) on \(bus): \(reason)"
        case let .writeBlock(count, register):
            let to = address.map { " of \(hex($0))" } ?? ""
            let bytes = count == 1 ? "1 byte" : "\(count) bytes"
            return "write \(bytes) at \(hex(register))\(to) on \(bus): \(reason)"
        }
    }
}

/// `0x3B`-style hexadecimal for register values and addresses.
public func hex(_ value: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return "0x" + String(digits[Int(value >> 4)]) + String(digits[Int(value & 0xF)])
}
