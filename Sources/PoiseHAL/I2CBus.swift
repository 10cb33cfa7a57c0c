
/// An I²C bus seen from the host: the kernel seam every driver talks through.
///
/// `LinuxI2CBus` implements it on `/dev/i2c-N`; the simulated MPU-9250 in PoiseSensors
/// implements it register for register, so drivers run unchanged against either.
/// Transfers take caller-provided buffers and must not allocate. Failures throw ``I2CError``,
/// which is plain data, so the real-time tick and the command line make the same calls.
public protocol I2CBus {
    /// The bus name used in messages, for example `/dev/i2c-1`.
    var path: String { get }

    /// What the adapter supports.
    var functionality: I2CFunctionality { get }

    /// Writes `register` and then reads `buffer.count` bytes from the device at `address`
    /// in one transaction (repeated start, no stop in between).
    mutating func writeThenRead(
        address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer
    ) throws(I2CError)

    /// Writes one byte to a register of the device at `address`.
    mutating func write(address: UInt8, register: UInt8, value: UInt8) throws(I2CError)

    /// Writes `bytes` (at most ``I2CBlockWrite/maximumLength``) starting at `register` of the
    /// device at `address` in one transaction: the register byte, then the data, no repeated
    /// start, so a device with auto-increment stores them in consecutive registers.
    mutating func write(address: UInt8, register: UInt8, bytes: UnsafeRawBufferPointer) throws(I2CError)

    /// Reads `block.count` (1…64) bytes from `register` into `block`: `writeThenRead` with
    /// the data held by value, the form the tick uses (no closure, no pointer). Defaults to
    /// `writeThenRead`; a backend whose tick path is checked implements it directly.
    mutating func read(address: UInt8, register: UInt8, into block: inout I2CBlock) throws(I2CError)

    /// Writes the block's bytes from `register`: `write(address:register:bytes:)` with the
    /// data held by value, the form the tick uses. Defaults to `write(address:register:bytes:)`.
    mutating func write(address: UInt8, register: UInt8, block: I2CBlock) throws(I2CError)

    /// Whether something answers at `address`, the way `i2cdetect` asks.
    mutating func probe(address: UInt8) -> I2CProbeResult
}

/// The answer at one address of a bus scan.
public enum I2CProbeResult: Sendable, Equatable {
    /// Nothing acknowledged.
    case absent
    /// A device acknowledged.
    case present
    /// A kernel driver owns the address (`UU` in `i2cdetect`).
    case busy
}

extension I2CBus {
    /// Reads one register.
    @inlinable
    public mutating func readRegister(address: UInt8, register: UInt8) throws(I2CError) -> UInt8 {
        var value: UInt8 = 0
        try withUnsafeMutableBytes(of: &value) { (buffer) throws(I2CError) in
            try writeThenRead(address: address, register: register, into: buffer)
        }
        return value
    }
}

/// Limits of ``I2CBus/write(address:register:bytes:)``.
public enum I2CBlockWrite {
    /// The longest block one call writes: all 16 PCA9685 channels (4 bytes each).
    public static let maximumLength = 64
    /// The longest SMBus I²C block write; longer blocks go out as several transactions when
    /// the adapter has no plain I²C.
    public static let smbusLength = 32
}

/// Up to ``I2CBlockWrite/maximumLength`` bytes for one block write, held by value.
@frozen
public struct I2CBlock: Sendable {
    public var bytes: InlineArray<64, UInt8>
    /// Bytes in use, from the start.
    public var count: Int

    @inlinable
    public init() {
        bytes = InlineArray(repeating: 0)
        count = 0
    }

    /// Appends a byte (ignored past 64).
    @inlinable
    public mutating func append(_ byte: UInt8) {
        guard count < 64 else { return }
        bytes[count] = byte
        count += 1
    }
}

extension I2CBus {
    public mutating func read(address: UInt8, register: UInt8, into block: inout I2CBlock) throws(I2CError) {
        let count = block.count
        guard count > 0, count <= 64 else {
            throw I2CError(.read(count: count, register: register), address: address, bus: path, errno: .invalidArgument)
        }
        try withUnsafeMutableBytes(of: &block.bytes) { (bytes) throws(I2CError) in
            try writeThenRead(address: address, register: register,
                              into: UnsafeMutableRawBufferPointer(rebasing: bytes[0..<count]))
        }
    }

    public mutating func write(address: UInt8, register: UInt8, block: I2CBlock) throws(I2CError) {
        var copy = block
        let count = block.count
        try withUnsafeBytes(of: &copy.bytes) { (raw) throws(I2CError) in
            try write(address: address, register: register, bytes: UnsafeRawBufferPointer(rebasing: raw[0..<count]))
        }
    }
}
