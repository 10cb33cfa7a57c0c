import CEvdev
import PoiseHAL
import CI2C
#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#endif

// The evdev edge of the `system_…` layer (see Syscalls.swift): reading input events, the
// evdev ioctls, poll, and listing /dev/input. In debug builds each asks the installed
// `SyscallMock` first. None of them is on the real-time path: the gamepad reader has a
// thread of its own.

/// `read(2)`. Mock: the reply's `data` is what the call reads (at most `count` bytes); the
/// return value is its length unless `value` says otherwise.
func system_read(_ fd: CInt, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if DEBUG
    if let mock = SyscallMock.current {
        let reply = mock.call("read", [.int(Int(fd)), .int(count)])
        guard reply.errno == nil else { return -1 }
        let part = reply.data.prefix(count)
        part.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: part.count) }
        return reply.value ?? part.count
    }
    #endif
    return read(fd, buffer, count)
}

/// `poll(2)` on one descriptor for input; returns the events that occurred (0: the timeout
/// passed), or -1. Mock: the reply's `value` is the events (default `POLLIN`).
func system_poll_input(_ fd: CInt, _ timeoutMilliseconds: CInt) -> CInt {
    #if DEBUG
    if let mock = SyscallMock.current {
        let reply = mock.call("poll", [.int(Int(fd)), .int(Int(timeoutMilliseconds))])
        return reply.errno == nil ? CInt(reply.value ?? Int(POLLIN)) : -1
    }
    #endif
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let ready = poll(&descriptor, 1, timeoutMilliseconds)
    return ready > 0 ? CInt(descriptor.revents) : ready
}

/// `ioctl(fd, EVIOCGNAME(length), name)`. Mock: `data` is the name.
func system_ioctl_EVIOCGNAME(_ fd: CInt, _ name: UnsafeMutablePointer<CChar>, _ length: CUnsignedInt) -> CInt {
    #if DEBUG
    if let mock = SyscallMock.current {
        let reply = mock.call("ioctl", [.int(Int(fd)), "EVIOCGNAME"])
        guard reply.errno == nil else { return -1 }
        let text = reply.data.prefix(Int(length) - 1)
        for (index, byte) in text.enumerated() { name[index] = CChar(bitPattern: byte) }
        name[text.count] = 0
        return CInt(text.count + 1)
    }
    #endif
    return poise_evdev_name(fd, name, length)
}

/// `ioctl(fd, EVIOCGBIT(type, length), bits)`: which codes of an event type the device has.
/// Mock: `data` is the bit field.
func system_ioctl_EVIOCGBIT(_ fd: CInt, _ type: CUnsignedInt, _ bits: UnsafeMutablePointer<UInt8>, _ length: CUnsignedInt) -> CInt {
    #if DEBUG
    if let mock = SyscallMock.current {
        let reply = mock.call("ioctl", [.int(Int(fd)), "EVIOCGBIT", .int(Int(type))])
        guard reply.errno == nil else { return -1 }
        for (index, byte) in reply.data.prefix(Int(length)).enumerated() { bits[index] = byte }
        return CInt(min(reply.data.count, Int(length)))
    }
    #endif
    return poise_evdev_bits(fd, type, bits, length)
}

/// `ioctl(fd, EVIOCGKEY(length), bits)`: the keys and buttons held now. Mock: `data`.
func system_ioctl_EVIOCGKEY(_ fd: CInt, _ bits: UnsafeMutablePointer<UInt8>, _ length: CUnsignedInt) -> CInt {
    #if DEBUG
    if let mock = SyscallMock.current {
        let reply = mock.call("ioctl", [.int(Int(fd)), "EVIOCGKEY"])
        guard reply.errno == nil else { return -1 }
        for (index, byte) in reply.data.prefix(Int(length)).enumerated() { bits[index] = byte }
        return CInt(min(reply.data.count, Int(length)))
    }
    #endif
    return poise_evdev_keys(fd, bits, length)
}

/// `ioctl(fd, EVIOCGABS(axis), info)`: an axis's value and range. Mock: `data` is the
/// `struct input_absinfo`, six little-endian 32-bit numbers (value, minimum, maximum, fuzz,
/// flat, resolution).
func system_ioctl_EVIOCGABS(_ fd: CInt, _ axis: CUnsignedInt, _ info: UnsafeMutablePointer<input_absinfo>) -> CInt {
    #if DEBUG
    if let mock = SyscallMock.current {
        let reply = mock.call("ioctl", [.int(Int(fd)), "EVIOCGABS", .int(Int(axis))])
        guard reply.errno == nil else { return -1 }
        var fields = [Int32](repeating: 0, count: 6)
        for index in 0..<min(6, reply.data.count / 4) {
            let bytes = reply.data[(index * 4)..<(index * 4 + 4)]
            fields[index] = Int32(bitPattern: bytes.reversed().reduce(0) { $0 << 8 | UInt32($1) })
        }
        info.pointee = input_absinfo(value: fields[0], minimum: fields[1], maximum: fields[2],
                                     fuzz: fields[3], flat: fields[4], resolution: fields[5])
        return 0
    }
    #endif
    return poise_evdev_absinfo(fd, axis, info)
}

/// The names in a directory (no `.` and `..`), or the errno of `opendir`. Mock: a call
/// `readdir(path)` whose `data` is the names, one a line.
func system_directory_names(_ path: String) -> Result<[String], Errno> {
    #if DEBUG
    if let mock = SyscallMock.current {
        let reply = mock.call("readdir", [.text(path)])
        if let errno = reply.errno { return .failure(errno) }
        return .success(String(decoding: reply.data, as: UTF8.self).split(separator: "\n").map(String.init))
    }
    #endif
    guard let directory = opendir(path) else { return .failure(Errno(rawValue: poise_errno())) }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { names.append(name) }
    }
    return .success(names)
}
