
/// The sysfs boundary of PWM channels: the only file operations ``SysfsPWMChannel`` makes.
///
/// ``LinuxPWMFiles`` implements it with system calls on a real tree (`/sys/class/pwm`, or a
/// directory tree in tests); the simulated board implements it in memory. `write` runs in the
/// tick, so implementations must not allocate there.
public protocol PWMFileSystem {
    /// Whether `path` exists.
    func exists(_ path: String) -> Bool
    /// Opens an attribute file for writing (`open(path, O_WRONLY | O_CLOEXEC)`).
    mutating func openForWriting(_ path: String) -> Result<CInt, Errno>
    /// One `pwrite(fd, bytes, count, 0)`: sysfs attributes take a whole value at offset 0.
    mutating func write(_ fd: CInt, _ bytes: UnsafeRawBufferPointer) -> Errno?
    /// Closes a descriptor from `openForWriting`.
    mutating func close(_ fd: CInt)
    /// Waits `milliseconds` (between polls for udev to make an exported channel writable).
    mutating func pause(milliseconds: Int)
}

/// Decimal text of an unsigned value in a fixed stack buffer, for sysfs writes in the tick.
@frozen
public struct DecimalText {
    @usableFromInline var digits: InlineArray<24, UInt8>
    @usableFromInline var start: Int

    /// The digits of `value` followed by a newline.
    @inlinable
    public init(_ value: UInt64) {
        digits = InlineArray(repeating: 0)
        var index = 23
        digits[index] = 0x0A
        var rest = value
        repeat {
            index -= 1
            digits[index] = 0x30 + UInt8(rest % 10)
            rest /= 10
        } while rest > 0
        start = index
    }

    /// Calls `body` with the text's bytes.
    @inlinable
    public mutating func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        let first = start
        return withUnsafeBytes(of: &digits) { raw in
            body(UnsafeRawBufferPointer(rebasing: raw[first..<24]))
        }
    }
}
