import CI2C
import SystemPackage

// The unsafe edge: every i2c-dev ioctl and libi2c call the Linux backend makes goes through
// here, each returning `Result` with the thread's errno captured immediately after the call.
// Tests replace the whole bus at the `I2CBus` protocol instead of faking these.

@usableFromInline
enum Kernel {
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
    @usableFromInline
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

    /// One `I2C_RDWR` message: the register byte followed by `bytes`, from one stack buffer.
    @usableFromInline
    static func writeBlock(_ fd: FileDescriptor, address: UInt8, register: UInt8,
                           bytes: UnsafeRawBufferPointer) -> Result<Void, Errno> {
        guard bytes.count <= I2CBlockWrite.maximumLength else { return .failure(.invalidArgument) }
        var message = InlineArray<65, UInt8>(repeating: 0)
        message[0] = register
        for index in 0..<bytes.count { message[index + 1] = bytes[index] }
        return withUnsafeMutableBytes(of: &message) { raw in
            var header = i2c_msg(addr: UInt16(address), flags: 0, len: UInt16(bytes.count + 1),
                                 buf: raw.baseAddress!.assumingMemoryBound(to: UInt8.self))
            switch check(poise_i2c_rdwr(fd.rawValue, &header, 1)) {
            case .failure(let errno): return .failure(errno)
            case .success(let done): return done == 1 ? .success(()) : .failure(.ioError)
            }
        }
    }

    /// SMBus I²C block write, at most 32 bytes.
    static func smbusWriteBlock(_ fd: FileDescriptor, register: UInt8, bytes: UnsafeRawBufferPointer) -> Result<Void, Errno> {
        guard let base = bytes.baseAddress, bytes.count > 0, bytes.count <= I2CBlockWrite.smbusLength else {
            return .failure(.invalidArgument)
        }
        return check(i2c_smbus_write_i2c_block_data(fd.rawValue, register, UInt8(bytes.count),
                                                    base.assumingMemoryBound(to: UInt8.self))).map { _ in () }
    }

    /// SMBus I²C block read (the fallback when the adapter has no plain I²C); at most 32 bytes.
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
