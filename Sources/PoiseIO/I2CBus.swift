/// An I²C bus seen from the host: the kernel seam every driver talks through.
///
/// `LinuxI2CBus` implements it on `/dev/i2c-N`; the simulated MPU-9250 in PoiseSensors
/// implements it register for register, so drivers run unchanged against either.
/// Transfers take caller-provided buffers and must not allocate.
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
