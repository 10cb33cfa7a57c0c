/// Reads fields from a file's bytes (``SettingsCoder``'s reading direction): each `code`
/// overwrites the value it is handed with the next field. Running past the end of the
/// payload, a section of another tag or length, or a value no setting can have throws a
/// ``CompiledSettingsError`` naming the byte offset of the field.
public struct SettingsDecoder: SettingsCoder {
    let bytes: [UInt8]
    public private(set) var offset: Int
    /// Where the fields end (the section's end while inside one).
    var end: Int

    public init(bytes: [UInt8], from start: Int, to end: Int) {
        self.bytes = bytes
        offset = start
        self.end = end
    }

    mutating func take(_ count: Int, _ what: StaticString) throws(CompiledSettingsError) -> Int {
        guard count >= 0, count <= end - offset else {
            throw CompiledSettingsError(.truncated(what: "\(what)", needed: count, available: end - offset), at: offset)
        }
        defer { offset += count }
        return offset
    }

    func uint32(at index: Int) -> UInt32 {
        UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24
    }

    public mutating func code(_ value: inout UInt8) throws(CompiledSettingsError) {
        value = bytes[try take(1, "a byte")]
    }

    public mutating func code(_ value: inout UInt32) throws(CompiledSettingsError) {
        value = uint32(at: try take(4, "a 32-bit field"))
    }

    public mutating func code(_ value: inout UInt64) throws(CompiledSettingsError) {
        let at = try take(8, "a 64-bit field")
        value = UInt64(uint32(at: at)) | UInt64(uint32(at: at + 4)) << 32
    }

    public mutating func code(_ value: inout String) throws(CompiledSettingsError) {
        let count = Int(uint32(at: try take(4, "a text length")))
        let at = try take(count, "text")
        value = String(decoding: bytes[at..<at + count], as: UTF8.self)
    }

    public mutating func section(_ tag: SectionTag, _ body: (inout SettingsDecoder) throws(CompiledSettingsError) -> Void) throws(CompiledSettingsError) {
        let start = offset
        let found = SectionTag(value: uint32(at: try take(4, "a section tag")))
        guard found == tag else { throw CompiledSettingsError(.unexpectedSection(expected: tag.name, found: found.name), at: start) }
        let length = Int(uint32(at: try take(4, "a section length")))
        let bodyStart = offset
        guard length <= end - bodyStart else {
            throw CompiledSettingsError(.truncated(what: "section \(tag.name)", needed: length, available: end - bodyStart), at: bodyStart)
        }
        let outer = end
        end = bodyStart + length
        try body(&self)
        guard offset == end else {
            throw CompiledSettingsError(.sectionLength(tag.name, declared: length, used: offset - bodyStart), at: start)
        }
        end = outer
    }
}
