/// The configuration registers the running driver re-reads, one per tick, round-robin
/// (ArduPilot's "checked registers"): a chip that browned out and reset itself to its
/// power-on values is found within one round, where reading them only at start never would.
///
/// Plain fixed-size data worked out once when the driver is made, so neither the tick nor a
/// re-configuration touches the configuration table (an array of strings): the driver
/// writes and verifies the chip's configuration from it too.
struct CheckedRegisters: BitwiseCopyable {
    static let capacity = 16
    var registers = InlineArray<16, UInt8>(repeating: 0)
    /// The configured values, under `masks` (self-clearing bits left out).
    var values = InlineArray<16, UInt8>(repeating: 0)
    var masks = InlineArray<16, UInt8>(repeating: 0)
    /// The values written (self-clearing bits included).
    var written = InlineArray<16, UInt8>(repeating: 0)
    var count = 0
    /// The entry the next tick reads.
    var next = 0

    init() {}

    init(_ table: [RegisterSetting]) {
        for setting in table.prefix(Self.capacity) {
            registers[count] = setting.register.rawValue
            masks[count] = setting.mask
            values[count] = setting.value & setting.mask
            written[count] = setting.value
            count += 1
        }
    }

    /// The entry to read this tick, moving on to the next one.
    mutating func advance() -> (register: UInt8, value: UInt8, mask: UInt8)? {
        guard count > 0 else { return nil }
        let index = next < count ? next : 0
        next = index + 1 < count ? index + 1 : 0
        return (registers[index], values[index], masks[index])
    }
}
