/// A bus's name (`/dev/i2c-1`) held by value, so an ``I2CError`` naming it stays plain data.
///
/// Holds up to ``capacity`` bytes of UTF-8; a longer name keeps its first bytes.
@frozen
public struct I2CBusName: Sendable, Equatable, BitwiseCopyable, CustomStringConvertible {
    public static var capacity: Int { 32 }
    @usableFromInline var bytes: InlineArray<32, UInt8>
    @usableFromInline var count: Int

    /// The first ``capacity`` bytes of `name`.
    public init(_ name: String) {
        bytes = InlineArray(repeating: 0)
        count = 0
        for byte in name.utf8.prefix(Self.capacity) {
            bytes[count] = byte
            count += 1
        }
    }

    /// A constant name, without touching a `String` (for code the tick runs).
    @inlinable
    public init(constant name: StaticString) {
        bytes = InlineArray(repeating: 0)
        count = min(name.utf8CodeUnitCount, 32)
        for index in 0..<count { bytes[index] = name.utf8Start[index] }
    }

    public var description: String {
        var copy = bytes
        let used = count
        return withUnsafeBytes(of: &copy) { String(decoding: $0.prefix(used), as: UTF8.self) }
    }

    public static func == (a: I2CBusName, b: I2CBusName) -> Bool {
        guard a.count == b.count else { return false }
        for index in 0..<a.count where a.bytes[index] != b.bytes[index] { return false }
        return true
    }
}
