/// One function per settings struct serves both directions: `code(_:)` hands every field,
/// in file order, to a coder that either writes it (``SettingsEncoder``) or overwrites it
/// with what the file holds (``SettingsDecoder``). A field is therefore named once, and
/// encode and decode cannot disagree on the order or the width of a field.
///
/// The wire form is little-endian: `Float` and `Double` as their bit patterns (every value,
/// NaN payloads and signed zeros included, comes back bit for bit), integers at a fixed
/// width, a `String` as a `UInt32` byte count and its UTF-8 bytes, an enumeration as its
/// raw value.
public protocol SettingsCoder {
    /// Bytes from the start of the file to the next field.
    var offset: Int { get }
    mutating func code(_ value: inout UInt8) throws(CompiledSettingsError)
    mutating func code(_ value: inout UInt32) throws(CompiledSettingsError)
    mutating func code(_ value: inout UInt64) throws(CompiledSettingsError)
    mutating func code(_ value: inout String) throws(CompiledSettingsError)
    /// An array's element count (a `UInt32`; by default written as one).
    mutating func codeCount(_ count: inout UInt32) throws(CompiledSettingsError)
    /// A section: its four-letter tag and byte length, then `body`'s fields. The decoder
    /// refuses another tag, and a body that does not use exactly the length it declares.
    mutating func section(_ tag: SectionTag, _ body: (inout Self) throws(CompiledSettingsError) -> Void) throws(CompiledSettingsError)
}

/// A value that reads and writes its fields through a ``SettingsCoder``.
public protocol SettingsCodable {
    mutating func code<Coder: SettingsCoder>(_ coder: inout Coder) throws(CompiledSettingsError)
}

extension SettingsCoder {
    public mutating func codeCount(_ count: inout UInt32) throws(CompiledSettingsError) {
        try code(&count)
    }

    public mutating func code(_ value: inout Float) throws(CompiledSettingsError) {
        var bits = value.bitPattern
        try code(&bits)
        value = Float(bitPattern: bits)
    }

    public mutating func code(_ value: inout Double) throws(CompiledSettingsError) {
        var bits = value.bitPattern
        try code(&bits)
        value = Double(bitPattern: bits)
    }

    public mutating func code(_ value: inout Bool) throws(CompiledSettingsError) {
        let start = offset
        var byte: UInt8 = value ? 1 : 0
        try code(&byte)
        guard byte <= 1 else { throw CompiledSettingsError(.invalidValue(what: "a flag", value: "\(byte)"), at: start) }
        value = byte == 1
    }

    /// An `Int` as 64 bits (the board and the host may differ in nothing here).
    public mutating func code(_ value: inout Int) throws(CompiledSettingsError) {
        var bits = UInt64(bitPattern: Int64(value))
        try code(&bits)
        value = Int(Int64(bitPattern: bits))
    }

    public mutating func code(_ value: inout SIMD3<Float>) throws(CompiledSettingsError) {
        try code(&value.x)
        try code(&value.y)
        try code(&value.z)
    }

    /// An enumeration by its name (`poise`, `quad_x`): the file does not depend on the order
    /// of the cases.
    public mutating func code<Value: RawRepresentable>(_ value: inout Value, _ what: StaticString) throws(CompiledSettingsError)
    where Value.RawValue == String {
        let start = offset
        var name = value.rawValue
        try code(&name)
        guard let decoded = Value(rawValue: name) else {
            throw CompiledSettingsError(.invalidValue(what: "\(what)", value: name), at: start)
        }
        value = decoded
    }

    /// An enumeration by its one-byte raw value.
    public mutating func code<Value: RawRepresentable>(_ value: inout Value, _ what: StaticString) throws(CompiledSettingsError)
    where Value.RawValue == UInt8 {
        let start = offset
        var raw = value.rawValue
        try code(&raw)
        guard let decoded = Value(rawValue: raw) else {
            throw CompiledSettingsError(.invalidValue(what: "\(what)", value: "\(raw)"), at: start)
        }
        value = decoded
    }

    public mutating func code<Value: SettingsCodable>(_ value: inout Value) throws(CompiledSettingsError) {
        try value.code(&self)
    }

    /// An array: its count as a `UInt32`, then each element; a decoded element starts from
    /// `blank`, which its fields then overwrite.
    public mutating func code<Element: SettingsCodable>(_ array: inout [Element], blank: Element,
                                                        limit: Int = 1 << 16) throws(CompiledSettingsError) {
        let start = offset
        var count = UInt32(array.count)
        try codeCount(&count)
        guard Int(count) <= limit else {
            throw CompiledSettingsError(.invalidValue(what: "a count", value: "\(count) (at most \(limit))"), at: start)
        }
        if array.count != Int(count) { array = Array(repeating: blank, count: Int(count)) }
        for index in 0..<Int(count) { try array[index].code(&self) }
    }
}

/// A section's four-letter name, as the file spells it (`FILT`, `CTRL`, …).
public struct SectionTag: Sendable, Equatable {
    public let bytes: (UInt8, UInt8, UInt8, UInt8)

    public init(_ text: StaticString) {
        precondition(text.utf8CodeUnitCount == 4, "a section tag has four ASCII letters")
        let p = text.utf8Start
        bytes = (p[0], p[1], p[2], p[3])
    }

    public init(bytes: (UInt8, UInt8, UInt8, UInt8)) { self.bytes = bytes }

    public var value: UInt32 {
        UInt32(bytes.0) | UInt32(bytes.1) << 8 | UInt32(bytes.2) << 16 | UInt32(bytes.3) << 24
    }

    public init(value: UInt32) {
        bytes = (UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8),
                 UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 24))
    }

    /// The tag as text, non-printable bytes as `?`.
    public var name: String {
        var text = ""
        for byte in [bytes.0, bytes.1, bytes.2, bytes.3] {
            text.append(Character(Unicode.Scalar(byte >= 0x20 && byte < 0x7F ? byte : 0x3F)))
        }
        return text
    }

    public static func == (a: SectionTag, b: SectionTag) -> Bool { a.value == b.value }
}
