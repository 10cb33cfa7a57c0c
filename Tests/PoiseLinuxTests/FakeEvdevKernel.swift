import PoiseLinux
import PoiseHAL

/// A kernel's `/dev/input` for the syscall mock: event devices with names, axes, ranges,
/// held buttons and queued events; devices can be unplugged (reads fail with ENODEV, the file
/// disappears) and plugged in again.
final class FakeEvdevKernel: @unchecked Sendable {
    struct Device {
        var name: String
        var ranges: [UInt16: (minimum: Int32, maximum: Int32, value: Int32)]
        var held: Set<UInt16> = []
        var queued: [[UInt8]] = []
        var openError: Errno? = nil
    }

    var devices: [String: Device] = [:]
    /// Open descriptors and the path each refers to (removed paths stay, unplugged).
    var open: [Int: String] = [:]
    var unplugged: Set<String> = []
    var nextDescriptor = 200

    /// An Xbox-like pad: sticks −32768…32767, triggers 0…1023.
    static func xboxRanges(value: Int32 = 0) -> [UInt16: (minimum: Int32, maximum: Int32, value: Int32)] {
        [0x00: (-32768, 32767, value), 0x01: (-32768, 32767, value), 0x03: (-32768, 32767, value),
         0x04: (-32768, 32767, value), 0x02: (0, 1023, 0), 0x05: (0, 1023, 0)]
    }

    lazy var mock = SyscallMock { [unowned self] call in self.respond(call) }

    func respond(_ call: SyscallMock.Call) -> SyscallMock.Reply {
        func int(_ index: Int) -> Int { if case .int(let v) = call.arguments[index] { v } else { -1 } }
        func text(_ index: Int) -> String { if case .text(let t) = call.arguments[index] { t } else { "" } }
        switch call.name {
        case "readdir":
            return .reads(Array(devices.keys.sorted().map { String($0.split(separator: "/").last!) }.joined(separator: "\n").utf8))
        case "open":
            let path = text(0)
            guard let device = devices[path] else { return .failure(.noSuchFileOrDirectory) }
            if let error = device.openError { return .failure(error) }
            nextDescriptor += 1
            open[nextDescriptor] = path
            return .returns(nextDescriptor)
        case "close":
            open[int(0)] = nil
            return .success
        default:
            break
        }
        guard let path = open[int(0)] else { return .failure(.badFileDescriptor) }
        if unplugged.contains(path) {
            return call.name == "poll" ? .returns(0x19) /* POLLIN | POLLERR | POLLHUP */ : .failure(.operationNotSupportedByDevice)
        }
        guard let device = devices[path] else { return .failure(.operationNotSupportedByDevice) }
        switch call.name {
        case "poll":
            return .returns(device.queued.isEmpty ? 0 : 1)
        case "read":
            guard !device.queued.isEmpty else { return .failure(.resourceTemporarilyUnavailable) }
            let bytes = device.queued.joined()
            devices[path]!.queued = []
            return .reads(Array(bytes))
        case "ioctl":
            let request = text(1)
            switch request {
            case "EVIOCGNAME": return .reads(Array(device.name.utf8))
            case "EVIOCGBIT":
                guard int(2) == 3 else { return .reads([]) }
                return .reads(Self.bits(Set(device.ranges.keys), bytes: 8))
            case "EVIOCGKEY": return .reads(Self.bits(device.held, bytes: 0x300 / 8))
            case "EVIOCGABS":
                guard let range = device.ranges[UInt16(int(2))] else { return .failure(.invalidArgument) }
                return .reads([range.value, range.minimum, range.maximum, 0, 0, 0].flatMap(Self.littleEndian))
            default: return .failure(.invalidArgument)
            }
        default:
            return .failure(.invalidArgument)
        }
    }

    /// Queues events, as the kernel delivers them.
    func send(_ path: String, _ events: [(type: UInt16, code: UInt16, value: Int32)]) {
        devices[path]!.queued += events.map(Self.event)
    }

    /// One `struct input_event` on a 64-bit machine: a zero time stamp, type, code, value.
    static func event(_ e: (type: UInt16, code: UInt16, value: Int32)) -> [UInt8] {
        [UInt8](repeating: 0, count: 16) + [UInt8(e.type & 0xff), UInt8(e.type >> 8), UInt8(e.code & 0xff), UInt8(e.code >> 8)]
            + littleEndian(e.value)
    }

    static func littleEndian(_ value: Int32) -> [UInt8] {
        let bits = UInt32(bitPattern: value)
        return [0, 8, 16, 24].map { UInt8((bits >> $0) & 0xff) }
    }

    static func bits(_ codes: Set<UInt16>, bytes: Int) -> [UInt8] {
        var field = [UInt8](repeating: 0, count: bytes)
        for code in codes where Int(code) / 8 < bytes { field[Int(code) / 8] |= 1 << (code % 8) }
        return field
    }
}

/// What a reader handed on, in order.
final class GamepadRecorder: @unchecked Sendable {
    enum Item: Equatable {
        case sticks(x: Float, y: Float, z: Float, r: Float, buttons: UInt32)
        case arm(Bool)
    }
    var items: [Item] = []
    var log: [String] = []

    var sink: GamepadReader.Sink {
        GamepadReader.Sink(sticks: { [unowned self] c in items.append(.sticks(x: c.x, y: c.y, z: c.z, r: c.r, buttons: c.buttons)) },
                           arm: { [unowned self] in items.append(.arm($0)) },
                           log: { [unowned self] in log.append($0) })
    }

    var sticks: [Item] { items.filter { if case .sticks = $0 { true } else { false } } }
}

/// Seconds that move only when a test moves them.
final class TestClock: @unchecked Sendable {
    var now = 0.0
    var read: @Sendable () -> Double { { [unowned self] in now } }
}
