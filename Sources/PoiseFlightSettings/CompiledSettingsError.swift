/// Why a compiled settings file was refused: what is wrong and the byte offset where it is.
public struct CompiledSettingsError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Problem: Sendable, Equatable {
        /// The file does not start with ``CompiledSettings/magic``.
        case notCompiledSettings
        /// Written in a format version this program does not read.
        case unsupportedVersion(found: UInt16, supported: UInt16)
        /// The file, a section or a field ends before `needed` bytes (`available` are left).
        case truncated(what: String, needed: Int, available: Int)
        /// Bytes after the checksum.
        case trailingBytes(count: Int)
        /// The stored CRC-32 is not that of the bytes before it: something in them changed.
        case checksumMismatch(stored: UInt32, computed: UInt32)
        /// Sections come in a fixed order; another tag stands here.
        case unexpectedSection(expected: String, found: String)
        /// A section's fields did not fill exactly its declared length.
        case sectionLength(String, declared: Int, used: Int)
        /// A field holds a value no setting can have (an unknown filter name, a flag of 2).
        case invalidValue(what: String, value: String)
    }

    public var problem: Problem
    /// Bytes from the start of the file to where the problem is.
    public var offset: Int

    public init(_ problem: Problem, at offset: Int) {
        self.problem = problem
        self.offset = offset
    }

    public var description: String {
        let what: String
        switch problem {
        case .notCompiledSettings:
            what = "not a compiled Poise configuration (no `\(CompiledSettings.magicText)` magic; compile one with `poise compile CONFIG.yaml -o OUT`)"
        case .unsupportedVersion(let found, let supported):
            what = "format version \(found), this program reads version \(supported) (compile the configuration again with this version's `poise compile`)"
        case .truncated(let thing, let needed, let available):
            what = "truncated: \(thing) needs \(needed) bytes, \(available) are left"
        case .trailingBytes(let count):
            what = "\(count) bytes after the checksum"
        case .checksumMismatch(let stored, let computed):
            what = "damaged: the CRC-32 stored here is 0x\(hex(stored)), the bytes before it give 0x\(hex(computed))"
        case .unexpectedSection(let expected, let found):
            what = "section \(expected) expected, \(found) found"
        case .sectionLength(let tag, let declared, let used):
            what = "section \(tag) declares \(declared) bytes, its fields use \(used)"
        case .invalidValue(let thing, let value):
            what = "\(thing) of `\(value)` is not a valid setting"
        }
        return "byte offset \(offset): \(what)"
    }

    func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}
