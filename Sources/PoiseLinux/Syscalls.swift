import PoiseHAL
import CGPIOD
import CI2C
#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#endif

// The unsafe edge: every system call and C library call the Linux backends make (i2c-dev
// ioctls and libi2c for I²C, libgpiod v1.6 for GPIO, sysfs files for PWM) is one `system_…`
// function here, a thin wrapper with the C signature. In debug builds each one first asks
// the installed `SyscallMock` (tests), which records the call and may force its result.
// Callers turn the C result into `Result` with `valueOrErrno`, where EINTR is retried.
//
// The wrappers are excluded from performance analysis so the tick's `@_noAllocation` code
// may call them: a system call allocates nothing in the process, and libgpiod's set-value
// is one ioctl on the line's handle.

// MARK: Results and EINTR

/// The C result as `Result`, with errno captured right after the call; a failure with
/// `EINTR` calls again when `retryOnInterrupt` is set. The one place EINTR is handled.
@usableFromInline @inline(__always)
func valueOrErrno<Value: FixedWidthInteger>(
    retryOnInterrupt: Bool = true, _ call: () -> Value
) -> Result<Value, Errno> {
    while true {
        let value = call()
        if value >= 0 { return .success(value) }
        let code = poise_errno()
        if code == EINTR && retryOnInterrupt { continue }
        return .failure(Errno(rawValue: code))
    }
}

/// Like `valueOrErrno` for the C calls that return a pointer, NULL on failure.
@inline(__always)
func pointerOrErrno<Pointer>(retryOnInterrupt: Bool = true, _ call: () -> Pointer?) -> Result<Pointer, Errno> {
    while true {
        if let pointer = call() { return .success(pointer) }
        let code = poise_errno()
        if code == EINTR && retryOnInterrupt { continue }
        return .failure(Errno(rawValue: code))
    }
}

// MARK: Files

@usableFromInline @inline(never) @_semantics("no_performance_analysis")
func system_open(_ path: UnsafePointer<CChar>, _ flags: CInt) -> CInt {
    #if DEBUG
    if let mock = SyscallMock.current {
        return mock.call("open", [.text(String(cString: path)), .int(Int(flags))]).descriptor(mock)
    }
    #endif
    return open(path, flags)
}

@usableFromInline @inline(never) @_semantics("no_performance_analysis")
func system_close(_ fd: CInt) -> CInt {
    #if DEBUG
    if let mock = SyscallMock.current { return mock.call("close", [.int(Int(fd))]).status() }
    #endif
    return close(fd)
}

/// `dup2(2)`: makes `target` refer to the file `source` refers to (atomically: a call on
/// `target` in another thread meets the old file or the new one, never a closed number).
func system_dup2(_ source: CInt, _ target: CInt) -> CInt {
    #if DEBUG
    if let mock = SyscallMock.current {
        return mock.call("dup2", [.int(Int(source)), .int(Int(target))]).errno == nil ? target : -1
    }
    #endif
    return dup2(source, target)
}

@usableFromInline @inline(never) @_semantics("no_performance_analysis")
func system_access(_ path: UnsafePointer<CChar>, _ mode: CInt) -> CInt {
    #if DEBUG
    if let mock = SyscallMock.current { return mock.call("access", [.text(String(cString: path)), .int(Int(mode))]).status() }
    #endif
    return access(path, mode)
}

@usableFromInline @inline(never) @_semantics("no_performance_analysis")
func system_pwrite(_ fd: CInt, _ buffer: UnsafeRawPointer?, _ count: Int, _ offset: Int) -> Int {
    #if DEBUG
    if let mock = SyscallMock.current {
        let bytes = buffer.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
        return mock.call("pwrite", [.int(Int(fd)), .bytes(bytes), .int(offset)]).count(default: count)
    }
    #endif
    return pwrite(fd, buffer, count, off_t(offset))
}

@usableFromInline @inline(never) @_semantics("no_performance_analysis")
func system_usleep(_ microseconds: UInt32) -> CInt {
    #if DEBUG
    if let mock = SyscallMock.current { return mock.call("usleep", [.int(Int(microseconds))]).status() }
    #endif
    return usleep(microseconds)
}

// MARK: i2c-dev ioctls

@usableFromInline @inline(never) @_semantics("no_performance_analysis")
func system_ioctl_I2C_FUNCS(_ fd: CInt, _ functionality: UnsafeMutablePointer<UInt>) -> CInt {
    #if DEBUG
    if let mock = SyscallMock.current {
        let reply = mock.call("ioctl", [.int(Int(fd)), "I2C_FUNCS"])
        if reply.errno == nil { functionality.pointee = UInt(reply.value ?? 0) }
        return reply.status()
    }
    #endif
    return poise_i2c_funcs(fd, functionality)
}

@usableFromInline @inline(never) @_semantics("no_performance_analysis")
func system_ioctl_I2C_SLAVE(_ fd: CInt, _ address: UInt) -> CInt {
    #if DEBUG
    if let mock = SyscallMock.current {
        return mock.call("ioctl", [.int(Int(fd)), "I2C_SLAVE", .int(Int(address))]).status()
    }
    #endif
    return poise_i2c_set_slave(fd, address)
}

/// `ioctl(fd, I2C_RDWR, {messages, count})`; returns the number of messages transferred.
@usableFromInline @inline(never) @_semantics("no_performance_analysis")
func system_ioctl_I2C_RDWR(_ fd: CInt, _ messages: UnsafeMutablePointer<i2c_msg>, _ count: CUnsignedInt) -> CInt {
    #if DEBUG
    if let mock = SyscallMock.current {
        let list = UnsafeMutableBufferPointer(start: messages, count: Int(count))
        let reply = mock.call("ioctl", [.int(Int(fd)), "I2C_RDWR", .messages(list.map(I2CMessageRecord.init))])
        if reply.errno == nil {
            var data = reply.data[...]
            for message in list where message.flags & UInt16(I2C_M_RD) != 0 {
                let part = data.prefix(Int(message.len))
                for (index, byte) in part.enumerated() { message.buf[index] = byte }
                data = data.dropFirst(part.count)
            }
        }
        return reply.count(default: Int(count))
    }
    #endif
    return poise_i2c_rdwr(fd, messages, count)
}

// MARK: libi2c (SMBus through i2c-dev)

@usableFromInline @inline(never) @_semantics("no_performance_analysis")
func system_i2c_smbus_read_i2c_block_data(
    _ fd: CInt, _ register: UInt8, _ length: UInt8, _ values: UnsafeMutablePointer<UInt8>
) -> CInt {
    #if DEBUG
    if let mock = SyscallMock.current {
        let reply = mock.call("i2c_smbus_read_i2c_block_data", [.int(Int(fd)), .int(Int(register)), .int(Int(length))])
        if reply.errno == nil {
            for (index, byte) in reply.data.prefix(Int(length)).enumerated() { values[index] = byte }
        }
        return reply.count(default: Int(length))
    }
    #endif
    return i2c_smbus_read_i2c_block_data(fd, register, length, values)
}

@usableFromInline @inline(never) @_semantics("no_performance_analysis")
func system_i2c_smbus_write_i2c_block_data(
    _ fd: CInt, _ register: UInt8, _ length: UInt8, _ values: UnsafePointer<UInt8>
) -> CInt {
    #if DEBUG
    if let mock = SyscallMock.current {
        let bytes = Array(UnsafeBufferPointer(start: values, count: Int(length)))
        return mock.call("i2c_smbus_write_i2c_block_data", [.int(Int(fd)), .int(Int(register)), .bytes(bytes)]).status()
    }
    #endif
    return i2c_smbus_write_i2c_block_data(fd, register, length, values)
}

@usableFromInline @inline(never) @_semantics("no_performance_analysis")
func system_i2c_smbus_write_byte_data(_ fd: CInt, _ register: UInt8, _ value: UInt8) -> CInt {
    #if DEBUG
    if let mock = SyscallMock.current {
        return mock.call("i2c_smbus_write_byte_data", [.int(Int(fd)), .int(Int(register)), .int(Int(value))]).status()
    }
    #endif
    return i2c_smbus_write_byte_data(fd, register, value)
}

@usableFromInline @inline(never) @_semantics("no_performance_analysis")
func system_i2c_smbus_read_byte(_ fd: CInt) -> CInt {
    #if DEBUG
    if let mock = SyscallMock.current { return mock.call("i2c_smbus_read_byte", [.int(Int(fd))]).status() }
    #endif
    return i2c_smbus_read_byte(fd)
}

@usableFromInline @inline(never) @_semantics("no_performance_analysis")
func system_i2c_smbus_write_quick(_ fd: CInt, _ value: UInt8) -> CInt {
    #if DEBUG
    if let mock = SyscallMock.current {
        return mock.call("i2c_smbus_write_quick", [.int(Int(fd)), .int(Int(value))]).status()
    }
    #endif
    return i2c_smbus_write_quick(fd, value)
}

// MARK: libgpiod v1.6

@usableFromInline @inline(never) @_semantics("no_performance_analysis")
func system_gpiod_chip_open_lookup(_ description: UnsafePointer<CChar>) -> OpaquePointer? {
    #if DEBUG
    if let mock = SyscallMock.current {
        return mock.call("gpiod_chip_open_lookup", [.text(String(cString: description))]).handle(mock)
    }
    #endif
    return gpiod_chip_open_lookup(description)
}

@usableFromInline @inline(never) @_semantics("no_performance_analysis")
func system_gpiod_chip_get_line(_ chip: OpaquePointer, _ offset: UInt32) -> OpaquePointer? {
    #if DEBUG
    if let mock = SyscallMock.current {
        return mock.call("gpiod_chip_get_line", [.int(Int(bitPattern: chip)), .int(Int(offset))]).handle(mock)
    }
    #endif
    return gpiod_chip_get_line(chip, offset)
}

@usableFromInline @inline(never) @_semantics("no_performance_analysis")
func system_gpiod_line_request(
    _ line: OpaquePointer, _ config: UnsafePointer<gpiod_line_request_config>, _ value: CInt
) -> CInt {
    #if DEBUG
    if let mock = SyscallMock.current {
        let consumer = config.pointee.consumer.map { String(cString: $0) } ?? ""
        return mock.call("gpiod_line_request", [.int(Int(bitPattern: line)), .text(consumer),
                                                .int(Int(config.pointee.request_type)), .int(Int(config.pointee.flags)),
                                                .int(Int(value))]).status()
    }
    #endif
    return gpiod_line_request(line, config, value)
}

@usableFromInline @inline(never) @_semantics("no_performance_analysis")
func system_gpiod_line_update(_ line: OpaquePointer) -> CInt {
    #if DEBUG
    if let mock = SyscallMock.current { return mock.call("gpiod_line_update", [.int(Int(bitPattern: line))]).status() }
    #endif
    return gpiod_line_update(line)
}

/// The line's consumer (NULL: none); the text belongs to libgpiod (or to the mock).
@usableFromInline @inline(never) @_semantics("no_performance_analysis")
func system_gpiod_line_consumer(_ line: OpaquePointer) -> UnsafePointer<CChar>? {
    #if DEBUG
    if let mock = SyscallMock.current { return mock.call("gpiod_line_consumer", [.int(Int(bitPattern: line))]).text(mock) }
    #endif
    return gpiod_line_consumer(line)
}

@usableFromInline @inline(never) @_semantics("no_performance_analysis")
func system_gpiod_line_set_value(_ line: OpaquePointer, _ value: CInt) -> CInt {
    #if DEBUG
    if let mock = SyscallMock.current {
        return mock.call("gpiod_line_set_value", [.int(Int(bitPattern: line)), .int(Int(value))]).status()
    }
    #endif
    return gpiod_line_set_value(line, value)
}

@usableFromInline @inline(never) @_semantics("no_performance_analysis")
func system_gpiod_line_release(_ line: OpaquePointer) {
    #if DEBUG
    if let mock = SyscallMock.current { _ = mock.call("gpiod_line_release", [.int(Int(bitPattern: line))]); return }
    #endif
    gpiod_line_release(line)
}

@usableFromInline @inline(never) @_semantics("no_performance_analysis")
func system_gpiod_chip_close(_ chip: OpaquePointer) {
    #if DEBUG
    if let mock = SyscallMock.current { _ = mock.call("gpiod_chip_close", [.int(Int(bitPattern: chip))]); return }
    #endif
    gpiod_chip_close(chip)
}

// MARK: libgpiod v1.6 edge events (the wheel encoders' reader thread, never the tick)

@usableFromInline @inline(never) @_semantics("no_performance_analysis")
func system_gpiod_line_get_value(_ line: OpaquePointer) -> CInt {
    #if DEBUG
    if let mock = SyscallMock.current { return mock.call("gpiod_line_get_value", [.int(Int(bitPattern: line))]).status() }
    #endif
    return gpiod_line_get_value(line)
}

@usableFromInline @inline(never) @_semantics("no_performance_analysis")
func system_gpiod_line_event_get_fd(_ line: OpaquePointer) -> CInt {
    #if DEBUG
    if let mock = SyscallMock.current { return mock.call("gpiod_line_event_get_fd", [.int(Int(bitPattern: line))]).descriptor(mock) }
    #endif
    return gpiod_line_event_get_fd(line)
}

/// Waits for any of `fds` to be readable. The mock answers with `value` (how many are
/// ready) and `data`, one byte per descriptor, non-zero for a readable one.
@usableFromInline @inline(never) @_semantics("no_performance_analysis")
func system_poll(_ fds: UnsafeMutablePointer<pollfd>, _ count: Int, _ timeoutMilliseconds: CInt) -> CInt {
    #if DEBUG
    if let mock = SyscallMock.current {
        let reply = mock.call("poll", [.int(count), .int(Int(timeoutMilliseconds))])
        for index in 0..<count {
            fds[index].revents = index < reply.data.count && reply.data[index] != 0 ? Int16(POLLIN) : 0
        }
        return reply.status()
    }
    #endif
    return poll(fds, nfds_t(count), timeoutMilliseconds)
}

/// Reads up to `capacity` pending edge events of a line. The mock answers with `data` as
/// pairs of bytes (event type: 1 rising, 2 falling; timestamp in ms) and returns their number.
@usableFromInline @inline(never) @_semantics("no_performance_analysis")
func system_gpiod_line_event_read_multiple(_ line: OpaquePointer, _ events: UnsafeMutablePointer<gpiod_line_event>,
                                           _ capacity: CUnsignedInt) -> CInt {
    #if DEBUG
    if let mock = SyscallMock.current {
        let reply = mock.call("gpiod_line_event_read_multiple", [.int(Int(bitPattern: line)), .int(Int(capacity))])
        guard reply.errno == nil else { return -1 }
        let n = min(Int(capacity), reply.data.count / 2)
        for index in 0..<n {
            let milliseconds = Int(reply.data[2 * index + 1])
            events[index] = gpiod_line_event(ts: timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000),
                                             event_type: CInt(reply.data[2 * index]))
        }
        return CInt(n)
    }
    #endif
    return gpiod_line_event_read_multiple(line, events, capacity)
}
