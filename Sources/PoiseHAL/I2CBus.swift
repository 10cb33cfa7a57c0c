
/// An I²C bus seen from the host: the kernel seam every driver talks through.
///
/// One primitive, ``transfer(address:write:read:)`` (ArduPilot's `Device::transfer`): write
/// some bytes, then read some after a repeated start, in one transaction. Reading and writing
/// registers, the burst read, block writes and the probe a bus scan makes are built on it in
/// the extension below. `LinuxI2CBus` implements it on `/dev/i2c-N` (one `I2C_RDWR`, or the
/// SMBus call of the same shape when the adapter has no plain I²C); the simulated MPU-9250
/// in PoiseSimulation implements it register for register, so drivers run unchanged against
/// either. Transfers take caller-provided buffers and must not allocate. Failures throw
/// ``I2CError``, which is plain data, so the real-time tick and the command line make the
/// same calls.
public protocol I2CBus {
    /// The bus name used in messages, for example `/dev/i2c-1`.
    var path: String { get }

    /// What the adapter supports.
    var functionality: I2CFunctionality { get }

    /// One transaction with the device at `address`: writes `write` (a register's number
    /// first, then any data for it), then, when `read` is not empty, reads `read.count` bytes
    /// after a repeated start (no stop in between). An empty `write` is a probe: an SMBus
    /// quick write when `read` is empty too, a receive byte when `read` holds one byte.
    /// A failure throws ``I2CError`` with the operation the transfer's shape names
    /// (``I2CError/Operation/init(writing:reading:)``).
    mutating func transfer(
        address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer
    ) throws(I2CError)
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

extension I2CError.Operation {
    /// What a transfer of this shape does, for its error: a read of `reading` bytes from the
    /// register written first; one register written with one value; or a block written from
    /// the register written first.
    @inlinable
    public init(writing: UnsafeRawBufferPointer, reading: Int) {
        let register = writing.isEmpty ? 0 : writing[0]
        if reading > 0 || writing.isEmpty {
            self = .read(count: reading, register: register)
        } else if writing.count == 2 {
            self = .write(register: register, value: writing[1])
        } else {
            self = .writeBlock(count: writing.count - 1, register: register)
        }
    }
}

// The register helpers, each one transfer. Inlinable: the tick's checked code in another
// module (the driver's burst, the output bank's PCA9685 block) sees through them to the
// backend's `transfer`.
extension I2CBus {
    /// Reads `buffer.count` bytes from `register` on: the register's number, a repeated
    /// start, the data (a device with auto-increment gives consecutive registers).
    @inlinable
    public mutating func writeThenRead(
        address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        var number = register
        try withUnsafeMutablePointer(to: &self) { (bus) throws(I2CError) in
            try withUnsafeBytes(of: &number) { (write) throws(I2CError) in
                try bus.pointee.transfer(address: address, write: write, read: buffer)
            }
        }
    }

    /// Reads one register.
    @inlinable
    public mutating func readRegister(address: UInt8, register: UInt8) throws(I2CError) -> UInt8 {
        var value: UInt8 = 0
        try withUnsafeMutableBytes(of: &value) { (buffer) throws(I2CError) in
            try writeThenRead(address: address, register: register, into: buffer)
        }
        return value
    }

    /// The burst read: `block.count` (1…64) bytes from `register` into `block`, the data held
    /// by value (the form the tick uses).
    @inlinable
    public mutating func read(address: UInt8, register: UInt8, into block: inout I2CBlock) throws(I2CError) {
        let count = block.count
        guard count > 0, count <= 64 else { throw invalidLength(.read(count: count, register: register), address) }
        try withUnsafeMutablePointer(to: &self) { (bus) throws(I2CError) in
            try withUnsafeMutableBytes(of: &block.bytes) { (bytes) throws(I2CError) in
                try bus.pointee.writeThenRead(address: address, register: register,
                                              into: UnsafeMutableRawBufferPointer(rebasing: bytes[0..<count]))
            }
        }
    }

    /// Writes one byte to a register.
    @inlinable
    public mutating func write(address: UInt8, register: UInt8, value: UInt8) throws(I2CError) {
        var message = InlineArray<65, UInt8>(repeating: register)
        message[1] = value
        try send(address: address, message: &message, count: 2)
    }

    /// Writes `bytes` (at most ``I2CBlockWrite/maximumLength``) from `register` on in one
    /// transaction: the register's number, then the data, no repeated start, so a device
    /// with auto-increment stores them in consecutive registers.
    @inlinable
    public mutating func write(address: UInt8, register: UInt8, bytes: UnsafeRawBufferPointer) throws(I2CError) {
        let count = bytes.count
        guard count <= I2CBlockWrite.maximumLength else {
            throw invalidLength(.writeBlock(count: count, register: register), address)
        }
        var message = InlineArray<65, UInt8>(repeating: register)
        for index in 0..<count { message[index + 1] = bytes[index] }
        try send(address: address, message: &message, count: count + 1)
    }

    /// Writes the block's bytes from `register` on, the data held by value (the form the
    /// tick uses): as ``write(address:register:bytes:)``.
    @inlinable
    public mutating func write(address: UInt8, register: UInt8, block: I2CBlock) throws(I2CError) {
        let count = block.count
        guard count >= 0, count <= I2CBlockWrite.maximumLength else {
            throw invalidLength(.writeBlock(count: count, register: register), address)
        }
        var message = InlineArray<65, UInt8>(repeating: register)
        for index in 0..<count { message[index + 1] = block.bytes[index] }
        try send(address: address, message: &message, count: count + 1)
    }

    /// Whether something answers at `address`, the way `i2cdetect` asks: a quick write, or a
    /// receive byte in the EEPROM ranges (where a quick write could corrupt data) and on
    /// adapters without the quick command; `busy` when a kernel driver holds the address.
    public mutating func probe(address: UInt8) -> I2CProbeResult {
        let eepromRange = (0x30...0x37).contains(address) || (0x50...0x5F).contains(address)
        let receiveByte = eepromRange || !functionality.contains(.smbusQuick)
        var byte: UInt8 = 0
        do throws(I2CError) {
            try withUnsafeMutableBytes(of: &byte) { (buffer) throws(I2CError) in
                try transfer(address: address, write: UnsafeRawBufferPointer(start: nil, count: 0),
                             read: receiveByte ? buffer : UnsafeMutableRawBufferPointer(start: nil, count: 0))
            }
            return .present
        } catch {
            if case .selectAddress = error.operation, error.errno == .resourceBusy { return .busy }
            return .absent
        }
    }

    /// The first `count` bytes of `message` as one write. (Here and in the other helpers the
    /// closures reach the bus through a pointer: a closure that captured `self` would make
    /// the optimiser's check on the tick see reference counting.)
    @inlinable
    mutating func send(address: UInt8, message: inout InlineArray<65, UInt8>, count: Int) throws(I2CError) {
        try withUnsafeMutablePointer(to: &self) { (bus) throws(I2CError) in
            try withUnsafeBytes(of: &message) { (raw) throws(I2CError) in
                try bus.pointee.transfer(address: address, write: UnsafeRawBufferPointer(rebasing: raw[0..<count]),
                                         read: UnsafeMutableRawBufferPointer(start: nil, count: 0))
            }
        }
    }

    /// The error for a length no transfer takes (outside the tick's analysis: it names the bus).
    @usableFromInline @inline(never) @_semantics("no_performance_analysis")
    func invalidLength(_ operation: I2CError.Operation, _ address: UInt8) -> I2CError {
        I2CError(operation, address: address, bus: path, errno: .invalidArgument)
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
