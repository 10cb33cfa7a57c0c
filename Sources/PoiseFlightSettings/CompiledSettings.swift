/// The compiled configuration file `poise compile` writes and the board binary reads: the
/// ``FlightSettings`` a YAML configuration resolves to, in a compact binary form.
///
/// | offset | bytes | field |
/// |---|---|---|
/// | 0 | 8 | magic `PoiseCfg` |
/// | 8 | 2 | format version, little-endian (``formatVersion``) |
/// | 10 | 2 | 0 (reserved) |
/// | 12 | 4 | payload length N, little-endian |
/// | 16 | N | payload: the sections `FILT GYRO CTRL SAFE OUTS FRAM SENS LOOP SETP RIGS CONF`, each a four-letter tag, a `UInt32` length and its fields (FlightSettings+Coding.swift) |
/// | 16 + N | 4 | CRC-32 (zlib's) of bytes 0 ..< 16 + N |
///
/// The reader checks in that order — magic, version, length against the file's size,
/// checksum, then each section — and refuses the file at the first problem, naming the
/// byte offset (``CompiledSettingsError``).
public enum CompiledSettings {
    public static let magicText = "PoiseCfg"
    public static let magic: [UInt8] = Array(magicText.utf8)
    /// Raised whenever a field or a section is added, removed or changes meaning.
    public static let formatVersion: UInt16 = 3
    /// Bytes before the payload, and of the checksum after it.
    public static let headerSize = 16, checksumSize = 4

    /// The file holding `settings`.
    public static func encode(_ settings: FlightSettings) -> [UInt8] {
        var header = magic
        header += [UInt8(truncatingIfNeeded: formatVersion), UInt8(truncatingIfNeeded: formatVersion >> 8), 0, 0]
        header += [0, 0, 0, 0]
        var encoder = SettingsEncoder(bytes: header)
        var copy = settings
        // The encoder never throws: it only appends.
        try? copy.code(&encoder)
        var bytes = encoder.bytes
        let length = UInt32(bytes.count - headerSize)
        for i in 0..<4 { bytes[12 + i] = UInt8(truncatingIfNeeded: length >> (8 * UInt32(i))) }
        let crc = CRC32.checksum(bytes)
        for i in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i)))) }
        return bytes
    }

    /// True when `bytes` start with the magic: a compiled file, not YAML.
    public static func isCompiled(_ bytes: [UInt8]) -> Bool {
        bytes.count >= magic.count && Array(bytes[0..<magic.count]) == magic
    }

    /// The settings in `bytes`, or why they are refused.
    public static func decode(_ bytes: [UInt8]) throws(CompiledSettingsError) -> FlightSettings {
        for (index, byte) in magic.enumerated() {
            guard index < bytes.count else {
                // A prefix of the magic: a file cut short (an empty one says nothing more).
                throw CompiledSettingsError(index == 0 ? .notCompiledSettings
                    : .truncated(what: "the header", needed: headerSize, available: bytes.count), at: index)
            }
            guard bytes[index] == byte else { throw CompiledSettingsError(.notCompiledSettings, at: index) }
        }
        guard bytes.count >= headerSize else {
            throw CompiledSettingsError(.truncated(what: "the header", needed: headerSize, available: bytes.count), at: bytes.count)
        }
        let version = UInt16(bytes[8]) | UInt16(bytes[9]) << 8
        guard version == formatVersion else {
            throw CompiledSettingsError(.unsupportedVersion(found: version, supported: formatVersion), at: 8)
        }
        let length = Int(UInt32(bytes[12]) | UInt32(bytes[13]) << 8 | UInt32(bytes[14]) << 16 | UInt32(bytes[15]) << 24)
        let checksumAt = headerSize + length
        guard bytes.count >= checksumAt + checksumSize else {
            throw CompiledSettingsError(.truncated(what: "the payload and checksum (length at byte 12)",
                                                   needed: length + checksumSize, available: bytes.count - headerSize),
                                        at: bytes.count)
        }
        guard bytes.count == checksumAt + checksumSize else {
            throw CompiledSettingsError(.trailingBytes(count: bytes.count - checksumAt - checksumSize), at: checksumAt + checksumSize)
        }
        let stored = UInt32(bytes[checksumAt]) | UInt32(bytes[checksumAt + 1]) << 8
            | UInt32(bytes[checksumAt + 2]) << 16 | UInt32(bytes[checksumAt + 3]) << 24
        let computed = CRC32.checksum(bytes[0..<checksumAt])
        guard stored == computed else {
            throw CompiledSettingsError(.checksumMismatch(stored: stored, computed: computed), at: checksumAt)
        }
        var decoder = SettingsDecoder(bytes: bytes, from: headerSize, to: checksumAt)
        var settings = FlightSettings()
        try settings.code(&decoder)
        guard decoder.offset == checksumAt else {
            throw CompiledSettingsError(.sectionLength("payload", declared: length, used: decoder.offset - headerSize), at: decoder.offset)
        }
        return settings
    }
}
