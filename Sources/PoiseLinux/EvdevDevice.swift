import CEvdev
import CI2C
import PoiseHAL
#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#endif

/// An absolute axis's range as the device reports it (`struct input_absinfo`).
public struct EvdevAxisRange: Sendable, Equatable {
    public var minimum: Int32
    public var maximum: Int32
    /// The value when it was asked.
    public var value: Int32

    public init(minimum: Int32, maximum: Int32, value: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.value = value
    }
}

/// One `struct input_event`, without its time stamp (the reader stamps sticks with the
/// loop's clock when it hands them on).
public struct EvdevEvent: Sendable, Equatable {
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(type: UInt16, code: UInt16, value: Int32) {
        self.type = type
        self.code = code
        self.value = value
    }

    public static let synchronization: UInt16 = 0x00
    public static let key: UInt16 = 0x01
    public static let absolute: UInt16 = 0x03
    /// `SYN_REPORT`: the events before it form one state of the device.
    public static let report: UInt16 = 0
    /// `SYN_DROPPED`: the kernel's buffer overflowed; events were lost until the next report.
    public static let dropped: UInt16 = 3
    /// The size of a `struct input_event` on this machine.
    public static let size = MemoryLayout<input_event>.size
}

/// An open evdev device (`/dev/input/eventN`), through the `system_…` layer. Opened without
/// blocking; the reader polls it.
public final class EvdevDevice {
    public let path: String
    public let name: String
    let fd: CInt

    /// Opens `path` for reading and asks its name.
    public init(path: String) throws(GamepadError) {
        let opened = valueOrErrno { system_open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        let fd: CInt
        switch opened {
        case .failure(let errno): throw GamepadError.cannotOpen(path: path, errno: errno)
        case .success(let opened): fd = opened
        }
        // Every evdev device has a name (perhaps empty); a file without one is no input device.
        var buffer = [CChar](repeating: 0, count: 256)
        guard system_ioctl_EVIOCGNAME(fd, &buffer, CUnsignedInt(buffer.count)) >= 0 else {
            let errno = Errno(rawValue: poise_errno())
            _ = system_close(fd)
            throw GamepadError.notAnInputDevice(path: path, errno: errno)
        }
        self.fd = fd
        self.path = path
        name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { _ = system_close(fd) }

    /// The codes of `type` the device reports (`EVIOCGBIT`).
    public func codes(ofType type: UInt16, upTo count: Int) -> Set<UInt16> {
        var bits = [UInt8](repeating: 0, count: (count + 7) / 8)
        guard system_ioctl_EVIOCGBIT(fd, CUnsignedInt(type), &bits, CUnsignedInt(bits.count)) >= 0 else { return [] }
        return Self.set(bits)
    }

    /// The absolute axes the device has.
    public var absoluteAxes: Set<UInt16> { codes(ofType: EvdevEvent.absolute, upTo: 0x40) }

    /// The keys and buttons held now (`EVIOCGKEY`).
    public func heldKeys() -> Set<UInt16> {
        var bits = [UInt8](repeating: 0, count: 0x300 / 8)
        guard system_ioctl_EVIOCGKEY(fd, &bits, CUnsignedInt(bits.count)) >= 0 else { return [] }
        return Self.set(bits)
    }

    /// An axis's range and value now (`EVIOCGABS`).
    public func range(of axis: UInt16) -> Result<EvdevAxisRange, Errno> {
        var info = input_absinfo()
        return valueOrErrno { system_ioctl_EVIOCGABS(fd, CUnsignedInt(axis), &info) }
            .map { _ in EvdevAxisRange(minimum: info.minimum, maximum: info.maximum, value: info.value) }
    }

    /// Waits up to `timeout` ms for events; the poll events (0: none came), or the errno.
    public func wait(milliseconds timeout: Int32) -> Result<Int16, Errno> {
        valueOrErrno { system_poll_input(fd, timeout) }.map { Int16(truncatingIfNeeded: $0) }
    }

    /// Reads the pending events into `events` (replacing its contents); `.success` with none
    /// when there are none (`EAGAIN`). `ENODEV` means the device is gone.
    public func read(into events: inout [EvdevEvent]) -> Result<Void, Errno> {
        events.removeAll(keepingCapacity: true)
        let capacity = 64
        var buffer = [input_event](repeating: input_event(), count: capacity)
        let result = buffer.withUnsafeMutableBytes { raw in
            valueOrErrno { system_read(fd, raw.baseAddress!, raw.count) }
        }
        switch result {
        case .failure(.resourceTemporarilyUnavailable): return .success(())
        case .failure(let errno): return .failure(errno)
        case .success(let count):
            for event in buffer.prefix(count / EvdevEvent.size) {
                events.append(EvdevEvent(type: event.type, code: event.code, value: event.value))
            }
            return .success(())
        }
    }

    static func set(_ bits: [UInt8]) -> Set<UInt16> {
        var codes = Set<UInt16>()
        for (index, byte) in bits.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (1 << bit) != 0 { codes.insert(UInt16(index * 8 + bit)) }
        }
        return codes
    }
}

/// The input devices in a directory (`/dev/input`): each `event*` file's path and name (or
/// why it could not be opened), by event number.
public enum EvdevDirectory {
    public struct Entry: Sendable, Equatable {
        public var path: String
        /// The device's name, or nil when it could not be opened.
        public var name: String?
        /// Why it could not be opened.
        public var problem: GamepadError?
    }

    public static func list(_ directory: String = "/dev/input") -> Result<[Entry], Errno> {
        system_directory_names(directory).map { names in
            let events = names.filter { $0.hasPrefix("event") }
                .sorted { (Int($0.dropFirst(5)) ?? .max, $0) < (Int($1.dropFirst(5)) ?? .max, $1) }
            return events.map { file in
                let path = directory + "/" + file
                do throws(GamepadError) { return Entry(path: path, name: try EvdevDevice(path: path).name) } catch {
                    return Entry(path: path, name: nil, problem: error)
                }
            }
        }
    }
}
