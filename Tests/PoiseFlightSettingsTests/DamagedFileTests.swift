import PoiseFlightSettings
import Testing

/// A compiled file that is not exactly what `poise compile` wrote is refused, with the byte
/// offset of the problem.
@Suite struct DamagedFileTests {
    let file = CompiledSettings.encode(RandomSettings.make(seed: 7))
    var checksumAt: Int { file.count - CompiledSettings.checksumSize }

    func refusal(_ bytes: [UInt8]) -> CompiledSettingsError? {
        do { _ = try CompiledSettings.decode(bytes); return nil } catch { return error }
    }

    /// With the CRC-32 made right again, so the check behind it is the one that answers.
    func resealed(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        let end = bytes.count - CompiledSettings.checksumSize
        let crc = CRC32.checksum(bytes[0..<end])
        for i in 0..<4 { bytes[end + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
        return bytes
    }

    @Test func everyFlippedByteIsRefusedWhereItIs() throws {
        for index in file.indices {
            for mask: UInt8 in [0x01, 0x80] {
                var damaged = file
                damaged[index] ^= mask
                let error = try #require(refusal(damaged), "byte \(index) flipped was accepted")
                switch index {
                case 0..<8:
                    #expect(error.problem == .notCompiledSettings && error.offset == index)
                case 8..<10:
                    #expect(error.offset == 8)
                    guard case .unsupportedVersion = error.problem else { Issue.record("byte \(index): \(error)"); continue }
                case 12..<16:
                    // The length no longer matches the file: cut short, or bytes after the checksum.
                    switch error.problem {
                    case .truncated: #expect(error.offset == damaged.count)
                    case .trailingBytes: #expect(error.offset < damaged.count)
                    default: Issue.record("byte \(index): \(error)")
                    }
                default:
                    #expect(error.offset == checksumAt, "byte \(index): \(error)")
                    guard case .checksumMismatch = error.problem else { Issue.record("byte \(index): \(error)"); continue }
                }
                #expect(error.description.hasPrefix("byte offset \(error.offset): "))
            }
        }
    }

    @Test func everyTruncationIsRefusedAtTheEnd() throws {
        for count in 0..<file.count {
            let error = try #require(refusal(Array(file.prefix(count))), "\(count) bytes were accepted")
            if count == 0 {
                #expect(error.problem == .notCompiledSettings && error.offset == 0)
            } else {
                guard case .truncated = error.problem else { Issue.record("\(count) bytes: \(error)"); continue }
                #expect(error.offset == count)
            }
        }
    }

    @Test func anotherVersionIsRefused() throws {
        var newer = file
        newer[8] = UInt8(truncatingIfNeeded: CompiledSettings.formatVersion + 1)
        let error = try #require(refusal(resealed(newer)))
        #expect(error.problem == .unsupportedVersion(found: CompiledSettings.formatVersion + 1, supported: CompiledSettings.formatVersion))
        #expect(error.offset == 8)
        #expect(error.description.contains("format version \(CompiledSettings.formatVersion + 1), this program reads version \(CompiledSettings.formatVersion)"))
    }

    /// A file of version 1 (before the rig's section) is refused with the way to a new one.
    @Test func aVersion1FileIsRefused() throws {
        var older = file
        (older[8], older[9]) = (1, 0)
        let error = try #require(refusal(resealed(older)))
        #expect(error.description == "byte offset 8: format version 1, this program reads version \(CompiledSettings.formatVersion) "
            + "(compile the configuration again with this version's `poise compile`)")
    }

    @Test func anotherMagicIsRefused() throws {
        var other = file
        other[3] = UInt8(ascii: "X")
        let error = try #require(refusal(other))
        #expect(error.problem == .notCompiledSettings && error.offset == 3)
        let yaml = Array("filter:\n  name: poise\n".utf8)
        #expect(refusal(yaml)?.problem == .notCompiledSettings)
        #expect(refusal(yaml)?.offset == 0)
    }

    @Test func trailingBytesAreRefused() throws {
        let error = try #require(refusal(file + [0]))
        #expect(error.problem == .trailingBytes(count: 1) && error.offset == file.count)
    }

    /// A file whose checksum is right but whose fields are not (a writer's bug, or a forgery)
    /// is refused at the field.
    @Test func aBadFieldUnderAGoodChecksumIsRefusedAtTheField() throws {
        // The first section's tag.
        var renamed = file
        renamed[CompiledSettings.headerSize] = UInt8(ascii: "X")
        let error = try #require(refusal(resealed(renamed)))
        #expect(error.problem == .unexpectedSection(expected: "FILT", found: "XILT"))
        #expect(error.offset == CompiledSettings.headerSize)
        // The filter's name, the first field of FILT: its text after the tag, length and name length.
        var unknown = file
        let nameAt = CompiledSettings.headerSize + 8 + 4
        unknown[nameAt] = UInt8(ascii: "Z")
        let refused = try #require(refusal(resealed(unknown)))
        #expect(refused.offset == nameAt - 4)
        guard case .invalidValue = refused.problem else { Issue.record("\(refused)"); return }
    }
}
