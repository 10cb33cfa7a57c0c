/// Writes fields into a growing byte array (``SettingsCoder``'s writing direction).
public struct SettingsEncoder: SettingsCoder {
    public private(set) var bytes: [UInt8]

    /// `bytes`: what precedes the fields (the file header).
    public init(bytes: [UInt8] = []) { self.bytes = bytes }

    public var offset: Int { bytes.count }

    public mutating func code(_ value: inout UInt8) throws(CompiledSettingsError) { bytes.append(value) }

    public mutating func code(_ value: inout UInt32) throws(CompiledSettingsError) { append(value) }

    public mutating func code(_ value: inout UInt64) throws(CompiledSettingsError) {
        append(UInt32(truncatingIfNeeded: value))
        append(UInt32(truncatingIfNeeded: value >> 32))
    }

    public mutating func code(_ value: inout String) throws(CompiledSettingsError) {
        let utf8 = Array(value.utf8)
        append(UInt32(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    public mutating func section(_ tag: SectionTag, _ body: (inout SettingsEncoder) throws(CompiledSettingsError) -> Void) throws(CompiledSettingsError) {
        append(tag.value)
        let lengthAt = bytes.count
        append(0)
        try body(&self)
        set(UInt32(bytes.count - lengthAt - 4), at: lengthAt)
    }

    /// Appends `value` little-endian.
    public mutating func append(_ value: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 24))
    }

    /// Overwrites four bytes at `index` with `value` little-endian.
    public mutating func set(_ value: UInt32, at index: Int) {
        bytes[index] = UInt8(truncatingIfNeeded: value)
        bytes[index + 1] = UInt8(truncatingIfNeeded: value >> 8)
        bytes[index + 2] = UInt8(truncatingIfNeeded: value >> 16)
        bytes[index + 3] = UInt8(truncatingIfNeeded: value >> 24)
    }
}
