import PoiseHAL

/// An I²C bus on Linux through the i2c-dev character device (`/dev/i2c-N`).
///
/// Register reads are one `I2C_RDWR` transaction (write the register, repeated start,
/// read N bytes) and register writes one `I2C_RDWR` message when the adapter supports plain
/// I²C; otherwise SMBus I²C block read and write byte data after `I2C_SLAVE`. Block writes
/// are one `I2C_RDWR` message (register byte then data), or SMBus I²C block writes of up to
/// 32 bytes each. Every call goes through the `system_…` layer (see `Syscalls.swift`).
/// Like `FileDescriptor`, the bus is a value: call `close()` once when done.
public struct LinuxI2CBus: I2CBus, Sendable {
    public let path: String
    public let functionality: I2CFunctionality
    /// `path` as plain data, for the errors the tick throws.
    @usableFromInline let name: I2CBusName
    @usableFromInline let descriptor: CInt
    /// The address last selected with `I2C_SLAVE` (SMBus transfers need it).
    @usableFromInline var selectedAddress: UInt8?

    /// Opens `path` (for example `/dev/i2c-1`) and queries what the adapter supports.
    public init(path: String) throws(I2CError) {
        let fd: CInt
        switch I2CTransfer.open(path) {
        case .success(let opened): fd = opened
        case .failure(let errno): throw I2CError(.open, address: nil, bus: path, errno: errno)
        }
        switch I2CTransfer.functionality(fd) {
        case .success(let bits):
            self.functionality = I2CFunctionality(rawValue: bits)
        case .failure(let errno):
            _ = system_close(fd)
            throw I2CError(.queryFunctionality, address: nil, bus: path, errno: errno)
        }
        self.path = path
        self.name = I2CBusName(path)
        self.descriptor = fd
    }

    /// Opens `/dev/i2c-<number>`.
    public init(bus number: Int) throws(I2CError) {
        try self.init(path: "/dev/i2c-\(number)")
    }

    /// Closes the device file. The bus must not be used afterwards.
    public func close() {
        // No retry on EINTR: the descriptor is released even then (close(2), NOTES).
        _ = system_close(descriptor)
    }

    public mutating func writeThenRead(
        address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        let failure: Errno?
        if functionality.contains(.plainI2C) {
            failure = I2CTransfer.writeThenRead(descriptor, address: address, register: register, into: buffer)
        } else if functionality.contains(.smbusReadI2CBlock), buffer.count <= I2CBlockWrite.smbusLength {
            try select(address)
            failure = I2CTransfer.smbusReadBlock(descriptor, register: register, into: buffer)
        } else {
            failure = .notSupported
        }
        if let failure {
            selectedAddress = nil   // a reopened file (LinuxI2CBus.reopen) has none selected
            throw I2CError(.read(count: buffer.count, register: register), address: address, bus: name, errno: failure)
        }
    }

    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func read(address: UInt8, register: UInt8, into block: inout I2CBlock) throws(I2CError) {
        let count = block.count
        let plain = functionality.contains(.plainI2C)
        var failure: Errno? = nil
        if count <= 0 || count > 64 {
            failure = .invalidArgument
        } else if !plain && !(functionality.contains(.smbusReadI2CBlock) && count <= I2CBlockWrite.smbusLength) {
            failure = .notSupported
        }
        if failure == nil, !plain { try select(address) }
        if failure == nil {
            failure = I2CTransfer.readBlock(descriptor, plain: plain, address: address, register: register, into: &block)
        }
        if let failure {
            selectedAddress = nil   // a reopened file (LinuxI2CBus.reopen) has none selected
            throw I2CError(.read(count: count, register: register), address: address, bus: name, errno: failure)
        }
    }

    public mutating func write(address: UInt8, register: UInt8, value: UInt8) throws(I2CError) {
        let failure: Errno?
        if functionality.contains(.plainI2C) {
            var byte = value
            failure = withUnsafeBytes(of: &byte) {
                I2CTransfer.write(descriptor, address: address, register: register, bytes: $0)
            }
        } else {
            try select(address)
            failure = I2CTransfer.smbusWrite(descriptor, register: register, value: value)
        }
        if let failure {
            selectedAddress = nil   // a reopened file (LinuxI2CBus.reopen) has none selected
            throw I2CError(.write(register: register, value: value), address: address, bus: name, errno: failure)
        }
    }

    public mutating func write(address: UInt8, register: UInt8, bytes: UnsafeRawBufferPointer) throws(I2CError) {
        let failure: Errno?
        if bytes.count > I2CBlockWrite.maximumLength {
            failure = .invalidArgument
        } else if functionality.contains(.plainI2C) {
            failure = I2CTransfer.write(descriptor, address: address, register: register, bytes: bytes)
        } else if functionality.contains(.smbusWriteI2CBlock) {
            try select(address)
            failure = I2CTransfer.smbusWrite(descriptor, register: register, bytes: bytes)
        } else {
            failure = .notSupported
        }
        if let failure {
            selectedAddress = nil   // a reopened file (LinuxI2CBus.reopen) has none selected
            throw I2CError(.writeBlock(count: bytes.count, register: register), address: address, bus: name, errno: failure)
        }
    }

    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func write(address: UInt8, register: UInt8, block: I2CBlock) throws(I2CError) {
        var failure: Errno? = nil
        if functionality.contains(.plainI2C) {
            failure = I2CTransfer.writeBlock(descriptor, address: address, register: register, block: block)
        } else if functionality.contains(.smbusWriteI2CBlock) {
            try select(address)
            failure = I2CTransfer.smbusWriteBlock(descriptor, register: register, block: block)
        } else {
            failure = .notSupported
        }
        if let failure {
            selectedAddress = nil   // a reopened file (LinuxI2CBus.reopen) has none selected
            throw I2CError(.writeBlock(count: block.count, register: register), address: address, bus: name, errno: failure)
        }
    }

    public mutating func probe(address: UInt8) -> I2CProbeResult {
        if let errno = I2CTransfer.selectAddress(descriptor, address) {
            selectedAddress = nil
            return errno == .resourceBusy ? .busy : .absent
        }
        selectedAddress = address
        let eepromRange = (0x30...0x37).contains(address) || (0x50...0x5F).contains(address)
        let useReadByte = eepromRange || !functionality.contains(.smbusQuick)
        return I2CTransfer.smbusProbe(descriptor, useReadByte: useReadByte) == nil ? .present : .absent
    }

    /// `I2C_SLAVE`, only when the address changes.
    @usableFromInline
    mutating func select(_ address: UInt8) throws(I2CError) {
        guard selectedAddress != address else { return }
        if let errno = I2CTransfer.selectAddress(descriptor, address) {
            selectedAddress = nil
            throw I2CError(.selectAddress, address: address, bus: name, errno: errno)
        }
        selectedAddress = address
    }
}
