import PoiseHAL
import CI2C
#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#endif

#if DEBUG
/// The test hook of the `system_…` layer (debug builds only): while a mock runs a body,
/// every system call the Linux backends make on that task is recorded instead of made, and
/// answered by the mock's `respond` function — a return value, data the call reads, or an
/// errno.
///
/// ```swift
/// let mock = SyscallMock { call in call.name == "i2c_smbus_write_quick" ? .failure(.remoteIO) : .success }
/// try mock.run { … try LinuxI2CBus(path: "/dev/i2c-1") … }
/// #expect(mock.calls.first == SyscallMock.Call("open", "/dev/i2c-1", 0o2_000_002))  // O_RDWR | O_CLOEXEC
/// ```
///
/// The mock is a task-local value, so tests running in parallel each see only their own.
/// Used from one task at a time.
public final class SyscallMock: @unchecked Sendable {
    /// One call: the C function's name and its arguments, in order.
    public struct Call: Hashable, Sendable, CustomStringConvertible {
        public var name: String
        public var arguments: [Argument]

        public init(_ name: String, _ arguments: Argument...) {
            self.name = name
            self.arguments = arguments
        }

        init(name: String, arguments: [Argument]) {
            self.name = name
            self.arguments = arguments
        }

        public var description: String { "\(name)(\(arguments.map(\.description).joined(separator: ", ")))" }
    }

    /// An argument as the kernel sees it: numbers, paths and request names, bytes written,
    /// and the messages of an `I2C_RDWR`.
    public enum Argument: Hashable, Sendable, CustomStringConvertible,
        ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
        case int(Int)
        case text(String)
        case bytes([UInt8])
        case messages([I2CMessageRecord])

        public init(integerLiteral value: Int) { self = .int(value) }
        public init(stringLiteral value: String) { self = .text(value) }

        public var description: String {
            switch self {
            case .int(let value): "\(value)"
            case .text(let text): text
            case .bytes(let bytes): "[" + bytes.map { hex($0) }.joined(separator: " ") + "]"
            case .messages(let messages): "{" + messages.map(\.description).joined(separator: ", ") + "}"
            }
        }
    }

    /// The mock's answer to one call.
    public struct Reply: Sendable {
        /// Fail with this errno (the call returns -1, or NULL).
        public var errno: Errno?
        /// The return value (a descriptor, a count, a byte) or, for `I2C_FUNCS`, the bits;
        /// nil: what the call returns on full success.
        public var value: Int?
        /// The bytes the call reads (the read messages of an `I2C_RDWR` in order, an SMBus
        /// block), or the text `gpiod_line_consumer` returns.
        public var data: [UInt8]

        public init(errno: Errno? = nil, value: Int? = nil, data: [UInt8] = []) {
            self.errno = errno
            self.value = value
            self.data = data
        }

        /// Full success.
        public static var success: Reply { Reply() }
        /// Fails with `errno`.
        public static func failure(_ errno: Errno) -> Reply { Reply(errno: errno) }
        /// Returns `value`.
        public static func returns(_ value: Int) -> Reply { Reply(value: value) }
        /// Succeeds, reading `data`.
        public static func reads(_ data: [UInt8]) -> Reply { Reply(data: data) }
    }

    /// Every call so far, in order.
    public private(set) var calls: [Call] = []
    private let respond: (Call) -> Reply
    private var nextHandle = 100
    private var texts: [UnsafeMutablePointer<CChar>] = []

    /// A mock answering each call with `respond` (default: full success; `open` returns
    /// descriptors from 100 up, libgpiod non-NULL handles).
    public init(_ respond: @escaping (Call) -> Reply = { _ in .success }) {
        self.respond = respond
    }

    deinit { texts.forEach { $0.deallocate() } }

    /// Runs `body` with this mock answering the system calls the backends make in it.
    @discardableResult
    public func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        try SyscallMock.$current.withValue(self, operation: body)
    }

    /// Only the calls named `name`.
    public func calls(named name: String) -> [Call] { calls.filter { $0.name == name } }

    @TaskLocal static var current: SyscallMock?

    /// Records the call and its answer; sets errno for a failure.
    func call(_ name: String, _ arguments: [Argument]) -> Reply {
        let call = Call(name: name, arguments: arguments)
        calls.append(call)
        let reply = respond(call)
        if let errno = reply.errno { poise_set_errno(errno.rawValue) }
        return reply
    }

    func newHandle() -> Int {
        defer { nextHandle += 1 }
        return nextHandle
    }

    func keep(_ text: [UInt8]) -> UnsafePointer<CChar> {
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: text.count + 1)
        for (index, byte) in text.enumerated() { copy[index] = CChar(bitPattern: byte) }
        copy[text.count] = 0
        texts.append(copy)
        return UnsafePointer(copy)
    }
}

extension SyscallMock.Reply {
    /// 0, or -1 for a failure.
    func status() -> CInt { errno == nil ? CInt(value ?? 0) : -1 }
    /// `value` (default `full`), or -1 for a failure.
    func count<Value: FixedWidthInteger>(default full: Int) -> Value { errno == nil ? Value(value ?? full) : -1 }
    /// A new descriptor, or -1.
    func descriptor(_ mock: SyscallMock) -> CInt { errno == nil ? CInt(value ?? mock.newHandle()) : -1 }
    /// A non-NULL stand-in for a library handle, or NULL.
    func handle(_ mock: SyscallMock) -> OpaquePointer? {
        errno == nil ? OpaquePointer(bitPattern: value ?? mock.newHandle()) : nil
    }
    /// `data` as C text the mock keeps, or NULL when there is none.
    func text(_ mock: SyscallMock) -> UnsafePointer<CChar>? { data.isEmpty ? nil : mock.keep(data) }
}
#endif

/// One `struct i2c_msg` of an `I2C_RDWR`, as recorded: target, flags, length and the bytes
/// a write message carries (none for a read).
public struct I2CMessageRecord: Hashable, Sendable, CustomStringConvertible {
    /// `I2C_M_RD`.
    public static let read: UInt16 = 0x0001
    public var address: UInt16
    public var flags: UInt16
    public var length: Int
    public var written: [UInt8]

    public init(address: UInt16, flags: UInt16, length: Int, written: [UInt8] = []) {
        self.address = address
        self.flags = flags
        self.length = length
        self.written = written
    }

    /// A write message carrying `bytes`.
    public static func write(_ address: UInt16, _ bytes: [UInt8]) -> I2CMessageRecord {
        I2CMessageRecord(address: address, flags: 0, length: bytes.count, written: bytes)
    }

    /// A read message of `length` bytes.
    public static func read(_ address: UInt16, _ length: Int) -> I2CMessageRecord {
        I2CMessageRecord(address: address, flags: read, length: length)
    }

    init(_ message: i2c_msg) {
        address = message.addr
        flags = message.flags
        length = Int(message.len)
        written = message.flags & Self.read != 0 || message.buf == nil
            ? [] : Array(UnsafeBufferPointer(start: message.buf, count: Int(message.len)))
    }

    public var description: String {
        flags & Self.read != 0 ? "read \(hex(UInt8(truncatingIfNeeded: address))) \(length)"
            : "write \(hex(UInt8(truncatingIfNeeded: address))) " + written.map { hex($0) }.joined(separator: " ")
    }
}
