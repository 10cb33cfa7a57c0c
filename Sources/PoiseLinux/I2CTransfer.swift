import CI2C
#if canImport(Glibc)
import Glibc
import PoiseHAL
#endif

/// The i2c-dev transfers ``LinuxI2CBus`` makes, built from the `system_…` calls: message
/// structs and buffers on the stack, the kernel's answer as an errno.
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

    /// One `I2C_RDWR` with two messages: write the register byte, then read with a
    /// repeated start.
    @usableFromInline @inline(never) @_semantics("no_performance_analysis")
    static func writeThenRead(
        _ fd: CInt, address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer
    ) -> Errno? {
        guard let base = buffer.baseAddress, buffer.count > 0, buffer.count <= Int(UInt16.max) else {
            return .invalidArgument
        }
        var registerByte = register
        return withUnsafeMutablePointer(to: &registerByte) { registerPointer in
            var messages = (
                i2c_msg(addr: UInt16(address), flags: 0, len: 1, buf: registerPointer),
                i2c_msg(addr: UInt16(address), flags: UInt16(I2C_M_RD), len: UInt16(buffer.count),
                        buf: base.assumingMemoryBound(to: UInt8.self)))
            return withUnsafeMutablePointer(to: &messages) { pair in
                pair.withMemoryRebound(to: i2c_msg.self, capacity: 2) { first in
                    transferred(valueOrErrno { system_ioctl_I2C_RDWR(fd, first, 2) }, expected: 2)
                }
            }
        }
    }

    /// `block.count` bytes into `block`: `I2C_RDWR` (`plain`) or the SMBus block read.
    @usableFromInline @inline(never) @_semantics("no_performance_analysis")
    static func readBlock(_ fd: CInt, plain: Bool, address: UInt8, register: UInt8,
                          into block: inout I2CBlock) -> Errno? {
        let count = block.count
        return withUnsafeMutableBytes(of: &block.bytes) { bytes in
            let part = UnsafeMutableRawBufferPointer(rebasing: bytes[0..<count])
            return plain ? writeThenRead(fd, address: address, register: register, into: part)
                : smbusReadBlock(fd, register: register, into: part)
        }
    }

    /// One `I2C_RDWR` message: the register byte followed by `bytes` (at most 64), from one
    /// stack buffer; a device with auto-increment stores them in consecutive registers.
    @usableFromInline @inline(never) @_semantics("no_performance_analysis")
    static func write(_ fd: CInt, address: UInt8, register: UInt8, bytes: UnsafeRawBufferPointer) -> Errno? {
        guard bytes.count <= I2CBlockWrite.maximumLength else { return .invalidArgument }
        var message = InlineArray<65, UInt8>(repeating: 0)
        message[0] = register
        for index in 0..<bytes.count { message[index + 1] = bytes[index] }
        return withUnsafeMutableBytes(of: &message) { raw in
            var header = i2c_msg(addr: UInt16(address), flags: 0, len: UInt16(bytes.count + 1),
                                 buf: raw.baseAddress!.assumingMemoryBound(to: UInt8.self))
            return transferred(valueOrErrno { system_ioctl_I2C_RDWR(fd, &header, 1) }, expected: 1)
        }
    }

    /// `write` of a block held by value.
    @usableFromInline @inline(never) @_semantics("no_performance_analysis")
    static func writeBlock(_ fd: CInt, address: UInt8, register: UInt8, block: I2CBlock) -> Errno? {
        var copy = block.bytes
        let count = block.count
        return withUnsafeBytes(of: &copy) { raw in
            write(fd, address: address, register: register, bytes: UnsafeRawBufferPointer(rebasing: raw[0..<count]))
        }
    }

    /// SMBus I²C block read (the fallback when the adapter has no plain I²C); at most 32 bytes.
    @usableFromInline @inline(never) @_semantics("no_performance_analysis")
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
    @usableFromInline @inline(never) @_semantics("no_performance_analysis")
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

    /// `smbusWrite` of a block held by value.
    @usableFromInline @inline(never) @_semantics("no_performance_analysis")
    static func smbusWriteBlock(_ fd: CInt, register: UInt8, block: I2CBlock) -> Errno? {
        var copy = block.bytes
        let count = block.count
        return withUnsafeBytes(of: &copy) { raw in
            smbusWrite(fd, register: register, bytes: UnsafeRawBufferPointer(rebasing: raw[0..<count]))
        }
    }

    /// SMBus write byte data.
    static func smbusWrite(_ fd: CInt, register: UInt8, value: UInt8) -> Errno? {
        failure(of: valueOrErrno { system_i2c_smbus_write_byte_data(fd, register, value) })
    }

    /// The probe `i2cdetect` uses by default: a quick write, or a receive byte in the
    /// EEPROM ranges where a quick write could corrupt data.
    static func smbusProbe(_ fd: CInt, useReadByte: Bool) -> Errno? {
        failure(of: valueOrErrno {
            useReadByte ? system_i2c_smbus_read_byte(fd) : system_i2c_smbus_write_quick(fd, UInt8(I2C_SMBUS_WRITE))
        })
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
