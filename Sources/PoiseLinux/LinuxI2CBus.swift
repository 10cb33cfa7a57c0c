import CI2C
import PoiseHAL
#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#endif

/// An I²C bus on Linux through the i2c-dev character device (`/dev/i2c-N`).
///
/// It implements the one primitive, ``transfer(address:write:read:)``: one `I2C_RDWR` when
/// the adapter supports plain I²C, otherwise the SMBus call of the same shape (the fallback
/// adapters such as the kernel's i2c-stub need). Every call goes through the `system_…`
/// layer (see `Syscalls.swift`).
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

    /// One transaction, as the adapter can make it. With plain I²C: one `I2C_RDWR` of one
    /// message (a write) or two (a write, then a read after a repeated start). Without it, the
    /// SMBus call of the same shape after `I2C_SLAVE`: I²C block read (a register, then up to
    /// 32 bytes), write byte data (a register and one value), I²C block writes (a register and
    /// data, 32 bytes at a time at consecutive registers). An empty write is a probe: quick
    /// write or receive byte, always after `I2C_SLAVE` (which answers EBUSY for an address a
    /// kernel driver holds). Every failure leaves by the one error at the end.
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func transfer(
        address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        var operation = I2CError.Operation(writing: write, reading: read.count)
        var failure: Errno? = nil
        switch I2CTransfer.route(writing: write.count, reading: read.count, functionality: functionality) {
        case .invalid:
            failure = .invalidArgument
        case .unsupported:
            failure = .notSupported
        case .plain:
            failure = I2CTransfer.plain(descriptor, address: address, write: write, read: read)
        case .smbus(let call):
            if write.isEmpty { selectedAddress = nil }  // a probe always asks, as i2cdetect does
            failure = select(address)
            if failure != nil {
                operation = .selectAddress
            } else {
                failure = I2CTransfer.smbus(descriptor, call, write: write, read: read)
            }
        }
        if let failure {
            selectedAddress = nil   // a reopened file (LinuxI2CBus.reopen) has none selected
            throw I2CError(operation, address: address, bus: name, errno: failure)
        }
    }

    /// `I2C_SLAVE`, only when the address changes.
    @usableFromInline
    mutating func select(_ address: UInt8) -> Errno? {
        guard selectedAddress != address else { return nil }
        if let errno = I2CTransfer.selectAddress(descriptor, address) { return errno }
        selectedAddress = address
        return nil
    }
}

/// The i2c-dev transfers ``LinuxI2CBus`` makes, built from the `system_…` calls: message
/// structs on the stack, the caller's buffers, the kernel's answer as an errno.
///
/// Those the tick reaches are excluded from performance analysis (each is a system call;
/// nothing is allocated in the process).
@usableFromInline
enum I2CTransfer {
    /// `open(path, O_RDWR | O_CLOEXEC)`.
    static func open(_ path: String) -> Result<CInt, Errno> {
        path.withCString { name in valueOrErrno { system_open(name, O_RDWR | O_CLOEXEC) } }
    }

    /// `ioctl(fd, I2C_FUNCS, &bits)`.
    static func functionality(_ fd: CInt) -> Result<UInt, Errno> {
        var bits: UInt = 0
        return valueOrErrno { system_ioctl_I2C_FUNCS(fd, &bits) }.map { _ in bits }
    }

    /// `ioctl(fd, I2C_SLAVE, address)`.
    @usableFromInline @inline(never) @_semantics("no_performance_analysis")
    static func selectAddress(_ fd: CInt, _ address: UInt8) -> Errno? {
        failure(of: valueOrErrno { system_ioctl_I2C_SLAVE(fd, UInt(address)) })
    }

    /// How ``LinuxI2CBus/transfer(address:write:read:)`` makes a transfer of this shape.
    @usableFromInline
    enum Route {
        /// One `I2C_RDWR`.
        case plain
        /// One SMBus call (or a few block writes) after `I2C_SLAVE`.
        case smbus(SMBusCall)
        /// The adapter cannot make it: `EOPNOTSUPP`.
        case unsupported
        /// No transfer has this shape: `EINVAL`.
        case invalid
    }

    /// The SMBus call of a transfer's shape.
    @usableFromInline
    enum SMBusCall {
        /// Nothing written, nothing read: the probe's quick write.
        case quick
        /// Nothing written, one byte read: the probe's receive byte.
        case receiveByte
        /// A register, then 1…32 bytes read.
        case readBlock
        /// A register and one value.
        case writeByteData
        /// A register and data, 32 bytes a call.
        case writeBlocks
    }

    @usableFromInline @inline(__always)
    static func route(writing: Int, reading: Int, functionality: I2CFunctionality) -> Route {
        if writing > I2CBlockWrite.maximumLength + 1 || reading > Int(UInt16.max) || (writing == 0 && reading > 1) {
            return .invalid
        }
        if writing == 0 { return .smbus(reading == 0 ? .quick : .receiveByte) }
        if functionality.contains(.plainI2C) { return .plain }
        if reading > 0 {
            return writing == 1 && reading <= I2CBlockWrite.smbusLength && functionality.contains(.smbusReadI2CBlock)
                ? .smbus(.readBlock) : .unsupported
        }
        if writing == 2 { return .smbus(.writeByteData) }
        return writing > 2 && functionality.contains(.smbusWriteI2CBlock) ? .smbus(.writeBlocks) : .unsupported
    }

    /// One `I2C_RDWR`: the write as one message, then the read (when there is one) as a
    /// second after a repeated start.
    @usableFromInline @inline(never) @_semantics("no_performance_analysis")
    static func plain(
        _ fd: CInt, address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer
    ) -> Errno? {
        guard let sent = write.baseAddress else { return .invalidArgument }
        let outgoing = i2c_msg(addr: UInt16(address), flags: 0, len: UInt16(write.count),
                               buf: UnsafeMutablePointer(mutating: sent.assumingMemoryBound(to: UInt8.self)))
        guard let received = read.baseAddress, read.count > 0 else {
            var message = outgoing
            return transferred(valueOrErrno { system_ioctl_I2C_RDWR(fd, &message, 1) }, expected: 1)
        }
        var messages = (outgoing, i2c_msg(addr: UInt16(address), flags: UInt16(I2C_M_RD), len: UInt16(read.count),
                                          buf: received.assumingMemoryBound(to: UInt8.self)))
        return withUnsafeMutablePointer(to: &messages) { pair in
            pair.withMemoryRebound(to: i2c_msg.self, capacity: 2) { first in
                transferred(valueOrErrno { system_ioctl_I2C_RDWR(fd, first, 2) }, expected: 2)
            }
        }
    }

    /// The SMBus call of a transfer's shape (the address is selected).
    @usableFromInline @inline(never) @_semantics("no_performance_analysis")
    static func smbus(
        _ fd: CInt, _ call: SMBusCall, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer
    ) -> Errno? {
        switch call {
        case .quick:
            return failure(of: valueOrErrno { system_i2c_smbus_write_quick(fd, UInt8(I2C_SMBUS_WRITE)) })
        case .receiveByte:
            switch valueOrErrno({ system_i2c_smbus_read_byte(fd) }) {
            case .success(let byte):
                read[0] = UInt8(truncatingIfNeeded: byte)
                return nil
            case .failure(let errno):
                return errno
            }
        case .readBlock:
            return smbusReadBlock(fd, register: write[0], into: read)
        case .writeByteData:
            return failure(of: valueOrErrno { system_i2c_smbus_write_byte_data(fd, write[0], write[1]) })
        case .writeBlocks:
            return smbusWrite(fd, register: write[0], bytes: UnsafeRawBufferPointer(rebasing: write[1...]))
        }
    }

    /// SMBus I²C block read (the fallback when the adapter has no plain I²C); at most 32 bytes.
    static func smbusReadBlock(_ fd: CInt, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) -> Errno? {
        guard let base = buffer.baseAddress, buffer.count > 0, buffer.count <= I2CBlockWrite.smbusLength else {
            return .invalidArgument
        }
        let got = valueOrErrno {
            system_i2c_smbus_read_i2c_block_data(fd, register, UInt8(buffer.count), base.assumingMemoryBound(to: UInt8.self))
        }
        return transferred(got, expected: buffer.count)
    }

    /// SMBus I²C block writes of `bytes`, 32 at a time at consecutive registers: they land
    /// where one long write would (the device auto-increments).
    static func smbusWrite(_ fd: CInt, register: UInt8, bytes: UnsafeRawBufferPointer) -> Errno? {
        guard bytes.count > 0 else { return nil }
        guard let base = bytes.baseAddress else { return .invalidArgument }
        var start = 0
        while start < bytes.count {
            let count = min(I2CBlockWrite.smbusLength, bytes.count - start)
            let status = valueOrErrno {
                system_i2c_smbus_write_i2c_block_data(
                    fd, register &+ UInt8(truncatingIfNeeded: start), UInt8(count),
                    base.advanced(by: start).assumingMemoryBound(to: UInt8.self))
            }
            if let errno = failure(of: status) { return errno }
            start += count
        }
        return nil
    }

    @usableFromInline @inline(__always)
    static func failure<Value>(of result: Result<Value, Errno>) -> Errno? {
        switch result {
        case .success: nil
        case .failure(let errno): errno
        }
    }

    /// A transfer that moved fewer messages or bytes than asked failed part-way: `EIO`.
    @usableFromInline @inline(__always)
    static func transferred(_ result: Result<CInt, Errno>, expected: Int) -> Errno? {
        switch result {
        case .success(let done): Int(done) == expected ? nil : .ioError
        case .failure(let errno): errno
        }
    }
}
