import CGPIOD
import CI2C
import SystemPackage
#if canImport(Glibc)
import Glibc
import PoiseHAL
#endif

// The unsafe edge: every i2c-dev ioctl and libi2c call the Linux backend makes goes through
// here, each returning `Result` with the thread's errno captured immediately after the call.
// Tests replace the whole bus at the `I2CBus` protocol instead of faking these.

@usableFromInline
enum Kernel {
    /// `pwrite(fd, bytes, count, 0)`, retried on `EINTR`. Excluded from performance analysis
    /// so the tick's `@_noAllocation` code may call it: the system call allocates nothing in
    /// the process.
    @usableFromInline @inline(never) @_semantics("no_performance_analysis")
    static func pwriteAtStart(_ fd: CInt, _ bytes: UnsafeRawBufferPointer) -> Errno? {
        while true {
            let written = pwrite(fd, bytes.baseAddress, bytes.count, 0)
            if written == bytes.count { return nil }
            if written >= 0 { return .ioError }
            let errno = poise_errno()
            if errno != EINTR { return Errno(rawValue: errno) }
        }
    }

    /// `gpiod_line_set_value`: one `GPIOHANDLE_SET_LINE_VALUES_IOCTL` on the line's handle,
    /// no allocation inside libgpiod. Excluded from performance analysis like `pwriteAtStart`.
    @usableFromInline @inline(never) @_semantics("no_performance_analysis")
    static func setLineValue(_ line: OpaquePointer, _ value: Bool) -> Errno? {
        gpiod_line_set_value(line, value ? 1 : 0) == 0 ? nil : Errno(rawValue: poise_errno())
    }

    @usableFromInline
    static func check(_ status: CInt) -> Result<CInt, Errno> {
        status < 0 ? .failure(Errno(rawValue: poise_errno())) : .success(status)
    }

    /// `ioctl(fd, I2C_SLAVE, address)`.
    static func selectAddress(_ fd: FileDescriptor, _ address: UInt8) -> Result<CInt, Errno> {
        check(poise_i2c_set_slave(fd.rawValue, UInt(address)))
    }

    /// `ioctl(fd, I2C_FUNCS, &bits)`.
    static func functionality(_ fd: FileDescriptor) -> Result<UInt, Errno> {
        var bits: UInt = 0
        return check(poise_i2c_funcs(fd.rawValue, &bits)).map { _ in bits }
    }

    /// One `I2C_RDWR` with two messages: write the register byte, then read with a
    /// repeated start. Both message structs live on the stack.
    @usableFromInline @inline(never) @_semantics("no_performance_analysis")
    static func writeThenRead(
        _ fd: FileDescriptor, address: UInt8, register: UInt8,
        into buffer: UnsafeMutableRawBufferPointer
    ) -> Result<Void, Errno> {
        guard let base = buffer.baseAddress, buffer.count > 0, buffer.count <= Int(UInt16.max) else {
            return .failure(.invalidArgument)
        }
        var registerByte = register
        return withUnsafeMutablePointer(to: &registerByte) { registerPointer in
            var messages = (
                i2c_msg(addr: UInt16(address), flags: 0, len: 1, buf: registerPointer),
                i2c_msg(addr: UInt16(address), flags: UInt16(I2C_M_RD), len: UInt16(buffer.count),
                        buf: base.assumingMemoryBound(to: UInt8.self)))
            return withUnsafeMutablePointer(to: &messages) { pair in
                pair.withMemoryRebound(to: i2c_msg.self, capacity: 2) { first in
                    switch check(poise_i2c_rdwr(fd.rawValue, first, 2)) {
                    case .failure(let errno): return .failure(errno)
                    // Fewer messages than asked means the read half never happened.
                    case .success(let done): return done == 2 ? .success(()) : .failure(.ioError)
                    }
                }
            }
        }
    }

    /// One `I2C_RDWR` message writing the register and its value (no `I2C_SLAVE` needed).
    static func writeRegister(_ fd: FileDescriptor, address: UInt8, register: UInt8, value: UInt8) -> Result<Void, Errno> {
        var bytes = (register, value)
        return withUnsafeMutableBytes(of: &bytes) { raw in
            var message = i2c_msg(addr: UInt16(address), flags: 0, len: 2,
                                  buf: raw.baseAddress!.assumingMemoryBound(to: UInt8.self))
            switch check(poise_i2c_rdwr(fd.rawValue, &message, 1)) {
            case .failure(let errno): return .failure(errno)
            case .success(let done): return done == 1 ? .success(()) : .failure(.ioError)
            }
        }
    }

    /// One `I2C_RDWR` message: the register byte followed by the block, from one stack buffer.
    /// Excluded from performance analysis (a system call; nothing allocated in the process).
    @usableFromInline @inline(never) @_semantics("no_performance_analysis")
    static func writeBlock(_ fd: CInt, address: UInt8, register: UInt8, block: I2CBlock) -> Errno? {
        var message = InlineArray<65, UInt8>(repeating: 0)
        message[0] = register
        for index in 0..<block.count { message[index + 1] = block.bytes[index] }
        return withUnsafeMutableBytes(of: &message) { raw in
            var header = i2c_msg(addr: UInt16(address), flags: 0, len: UInt16(block.count + 1),
                                 buf: raw.baseAddress!.assumingMemoryBound(to: UInt8.self))
            let done = poise_i2c_rdwr(fd, &header, 1)
            if done < 0 { return Errno(rawValue: poise_errno()) }
            return done == 1 ? nil : .ioError
        }
    }

    /// SMBus I²C block write of `count` (≤ 32) bytes of the block from `start`.
    @usableFromInline @inline(never) @_semantics("no_performance_analysis")
    static func smbusWriteBlock(_ fd: CInt, register: UInt8, block: I2CBlock, start: Int, count: Int) -> Errno? {
        guard count > 0, count <= I2CBlockWrite.smbusLength, start + count <= block.count else { return .invalidArgument }
        var copy = block.bytes
        return withUnsafeMutableBytes(of: &copy) { raw in
            let status = i2c_smbus_write_i2c_block_data(
                fd, register, UInt8(count), raw.baseAddress!.advanced(by: start).assumingMemoryBound(to: UInt8.self))
            return status < 0 ? Errno(rawValue: poise_errno()) : nil
        }
    }

    /// `ioctl(fd, I2C_SLAVE, address)`, for the tick.
    @usableFromInline @inline(never) @_semantics("no_performance_analysis")
    static func selectAddressRaw(_ fd: CInt, _ address: UInt8) -> Errno? {
        poise_i2c_set_slave(fd, UInt(address)) < 0 ? Errno(rawValue: poise_errno()) : nil
    }

    /// `block.count` bytes into `block`, by `I2C_RDWR` (`plain`) or the SMBus block read, for
    /// the tick. Excluded from performance analysis like `pwriteAtStart`.
    @usableFromInline @inline(never) @_semantics("no_performance_analysis")
    static func readBlock(_ fd: FileDescriptor, plain: Bool, address: UInt8, register: UInt8,
                          into block: inout I2CBlock) -> Errno? {
        let count = block.count
        let result = withUnsafeMutableBytes(of: &block.bytes) { bytes -> Result<Void, Errno> in
            let part = UnsafeMutableRawBufferPointer(rebasing: bytes[0..<count])
            return plain ? writeThenRead(fd, address: address, register: register, into: part)
                : smbusReadBlock(fd, register: register, into: part)
        }
        switch result {
        case .success: return nil
        case .failure(let errno): return errno
        }
    }

    /// SMBus I²C block read (the fallback when the adapter has no plain I²C); at most 32 bytes.
    @usableFromInline @inline(never) @_semantics("no_performance_analysis")
    static func smbusReadBlock(
        _ fd: FileDescriptor, register: UInt8, into buffer: UnsafeMutableRawBufferPointer
    ) -> Result<Void, Errno> {
        guard let base = buffer.baseAddress, buffer.count > 0, buffer.count <= 32 else {
            return .failure(.invalidArgument)
        }
        let got = i2c_smbus_read_i2c_block_data(
            fd.rawValue, register, UInt8(buffer.count), base.assumingMemoryBound(to: UInt8.self))
        switch check(got) {
        case .failure(let errno): return .failure(errno)
        case .success(let count): return Int(count) == buffer.count ? .success(()) : .failure(.ioError)
        }
    }

    /// SMBus write byte data.
    static func smbusWrite(_ fd: FileDescriptor, register: UInt8, value: UInt8) -> Result<Void, Errno> {
        check(i2c_smbus_write_byte_data(fd.rawValue, register, value)).map { _ in () }
    }

    /// The probe `i2cdetect` uses by default: a quick write, or a receive byte in the
    /// EEPROM ranges where a quick write could corrupt data.
    static func smbusProbe(_ fd: FileDescriptor, address: UInt8, useReadByte: Bool) -> Result<Void, Errno> {
        let status = useReadByte
            ? i2c_smbus_read_byte(fd.rawValue)
            : i2c_smbus_write_quick(fd.rawValue, UInt8(I2C_SMBUS_WRITE))
        return check(status).map { _ in () }
    }
}
