import CI2C
import SystemPackage
import PoiseHAL

/// An I²C bus on Linux through the i2c-dev character device (`/dev/i2c-N`).
///
/// Register reads are one `I2C_RDWR` transaction (write the register, repeated start,
/// read N bytes) and register writes one `I2C_RDWR` message when the adapter supports plain
/// I²C; otherwise SMBus I²C block read and write byte data after `I2C_SLAVE`. Block writes
/// are one `I2C_RDWR` message (register byte then data), or SMBus I²C block writes of up to
/// 32 bytes each.
/// Like `FileDescriptor`, the bus is a value: call `close()` once when done.
public struct LinuxI2CBus: I2CBus, Sendable {
    public let path: String
    public let functionality: I2CFunctionality
    @usableFromInline let descriptor: FileDescriptor
    /// The address last selected with `I2C_SLAVE` (SMBus transfers need it).
    @usableFromInline var selectedAddress: UInt8?

    /// Opens `path` (for example `/dev/i2c-1`) and queries what the adapter supports.
    public init(path: String) throws(I2CError) {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(FilePath(path), .readWrite, options: [.closeOnExec])
        } catch let errno as Errno {
            throw I2CError(.open, address: nil, bus: path, errno: errno)
        } catch {
            throw I2CError(.open, address: nil, bus: path, errno: .ioError)
        }
        switch Kernel.functionality(fd) {
        case .success(let bits):
            self.functionality = I2CFunctionality(rawValue: bits)
        case .failure(let errno):
            try? fd.close()
            throw I2CError(.queryFunctionality, address: nil, bus: path, errno: errno)
        }
        self.path = path
        self.descriptor = fd
    }

    /// Opens `/dev/i2c-<number>`.
    public init(bus number: Int) throws(I2CError) {
        try self.init(path: "/dev/i2c-\(number)")
    }

    /// Closes the device file. The bus must not be used afterwards.
    public func close() {
        try? descriptor.close()
    }

    public mutating func writeThenRead(
        address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        let result: Result<Void, Errno>
        if functionality.contains(.plainI2C) {
            result = Kernel.writeThenRead(descriptor, address: address, register: register, into: buffer)
        } else if functionality.contains(.smbusReadI2CBlock), buffer.count <= 32 {
            try select(address)
            result = Kernel.smbusReadBlock(descriptor, register: register, into: buffer)
        } else {
            result = .failure(.notSupported)
        }
        if case .failure(let errno) = result {
            throw I2CError(.read(count: buffer.count, register: register), address: address, bus: path, errno: errno)
        }
    }

    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func tryRead(address: UInt8, register: UInt8, into block: inout I2CBlock) -> Errno? {
        guard block.count > 0, block.count <= 64 else { return .invalidArgument }
        let plain = functionality.contains(.plainI2C)
        if !plain {
            guard functionality.contains(.smbusReadI2CBlock), block.count <= 32 else { return .notSupported }
            if selectedAddress != address {
                if let errno = Kernel.selectAddressRaw(descriptor.rawValue, address) {
                    selectedAddress = nil
                    return errno
                }
                selectedAddress = address
            }
        }
        return Kernel.readBlock(descriptor, plain: plain, address: address, register: register, into: &block)
    }

    public mutating func write(address: UInt8, register: UInt8, value: UInt8) throws(I2CError) {
        let result: Result<Void, Errno>
        if functionality.contains(.plainI2C) {
            result = Kernel.writeRegister(descriptor, address: address, register: register, value: value)
        } else {
            try select(address)
            result = Kernel.smbusWrite(descriptor, register: register, value: value)
        }
        if case .failure(let errno) = result {
            throw I2CError(.write(register: register, value: value), address: address, bus: path, errno: errno)
        }
    }

    public mutating func write(address: UInt8, register: UInt8, bytes: UnsafeRawBufferPointer) throws(I2CError) {
        var block = I2CBlock()
        for byte in bytes.prefix(I2CBlockWrite.maximumLength) { block.append(byte) }
        let errno = bytes.count > I2CBlockWrite.maximumLength
            ? .invalidArgument : tryWrite(address: address, register: register, block: block)
        if let errno {
            throw I2CError(.writeBlock(count: bytes.count, register: register), address: address, bus: path, errno: errno)
        }
    }

    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func tryWrite(address: UInt8, register: UInt8, block: I2CBlock) -> Errno? {
        if functionality.contains(.plainI2C) {
            return Kernel.writeBlock(descriptor.rawValue, address: address, register: register, block: block)
        }
        guard functionality.contains(.smbusWriteI2CBlock) else { return .notSupported }
        if selectedAddress != address {
            if let errno = Kernel.selectAddressRaw(descriptor.rawValue, address) {
                selectedAddress = nil
                return errno
            }
            selectedAddress = address
        }
        // Consecutive blocks land where one long write would (the device auto-increments).
        var start = 0
        while start < block.count {
            let count = min(I2CBlockWrite.smbusLength, block.count - start)
            if let errno = Kernel.smbusWriteBlock(descriptor.rawValue, register: register &+ UInt8(start),
                                                  block: block, start: start, count: count) {
                return errno
            }
            start += count
        }
        return nil
    }

    public mutating func probe(address: UInt8) -> I2CProbeResult {
        switch Kernel.selectAddress(descriptor, address) {
        case .failure(let errno):
            selectedAddress = nil
            return errno == .resourceBusy ? .busy : .absent
        case .success:
            selectedAddress = address
        }
        let eepromRange = (0x30...0x37).contains(address) || (0x50...0x5F).contains(address)
        let useReadByte = eepromRange || !functionality.contains(.smbusQuick)
        switch Kernel.smbusProbe(descriptor, address: address, useReadByte: useReadByte) {
        case .success: return .present
        case .failure: return .absent
        }
    }

    /// `I2C_SLAVE`, only when the address changes.
    @usableFromInline
    mutating func select(_ address: UInt8) throws(I2CError) {
        guard selectedAddress != address else { return }
        if case .failure(let errno) = Kernel.selectAddress(descriptor, address) {
            selectedAddress = nil
            throw I2CError(.selectAddress, address: address, bus: path, errno: errno)
        }
        selectedAddress = address
    }
}
