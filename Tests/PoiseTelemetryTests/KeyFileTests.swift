import Foundation
import Testing
@testable import PoiseTelemetry

/// `telemetry.signing_key_file`: one format (64 hexadecimal digits), regular files only, no
/// all-zero key, each refusal saying exactly what it found.
struct KeyFileTests {
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "poise-keyfile-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func message(_ path: String) -> String {
        do { _ = try MAVLinkSigningKey(file: path); return "accepted" } catch { return error.description }
    }

    static func write(_ bytes: [UInt8], in directory: URL, mode: mode_t = 0o600) -> String {
        let path = directory.appending(path: "link.key").path
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        chmod(path, mode)
        return path
    }

    /// A FIFO is refused at once (opened without blocking, checked with fstat), never read:
    /// before, `poise run` waited for a writer forever.
    @Test func aFIFOIsRefusedWithoutWaiting() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "fifo.key").path
        #expect(mkfifo(path, 0o600) == 0)
        #expect(Self.message(path) == "telemetry.signing_key_file \(path): a FIFO, not a regular file; refused (the key is 64 hexadecimal digits in a file)")
        #expect(Self.message(directory.path).hasSuffix(": a directory, not a regular file; refused (the key is 64 hexadecimal digits in a file)"))
        #expect(Self.message("/dev/null").hasSuffix(": a character device, not a regular file; refused (the key is 64 hexadecimal digits in a file)"))
    }

    @Test func eachWrongContentSaysWhatItFound() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func found(_ bytes: [UInt8]) -> String {
            let path = Self.write(bytes, in: directory)
            let text = Self.message(path)
            let prefix = "telemetry.signing_key_file \(path): expected 64 hexadecimal digits, found "
            return text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
        }
        let hex = Array((0 ..< 32).map { String(format: "%02x", $0 * 5 + 1) }.joined().utf8)
        #expect(found(hex + [0x0A]) == "accepted")
        #expect(found(Array(hex.dropLast()) + [0x0A]) == "63 hexadecimal digits")
        #expect(found(Array(hex.prefix(32))) == "32 hexadecimal digits")
        #expect(found((0 ..< 32).map { UInt8(200 + $0 % 50) }) == "32 bytes that are not hexadecimal text (a raw key? write it as hex: od -An -tx1 KEY | tr -d ' \\n')")
        #expect(found(Array(String(repeating: "0", count: 64).utf8) + [0x0A]) == "a key of all zeros; refused (make one: openssl rand -hex 32)")
        #expect(found([]) == "an empty file")
        #expect(found(Array(hex.prefix(10)) + Array("xyz".utf8)) == "'x' at byte 10, not a hexadecimal digit")
        #expect(found(Array(hex.prefix(32)) + [0x20] + Array(hex.suffix(32))) == "'\(String(UnicodeScalar(hex[32])))' at byte 33, not a hexadecimal digit")
        #expect(found([UInt8](repeating: 0x61, count: 5000)) == "more than 4096 bytes")
    }

    @Test func aKeyOthersMayReadIsRefused() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = Self.write(Array(String(repeating: "ab", count: 32).utf8), in: directory, mode: 0o640)
        #expect(Self.message(path) == "telemetry.signing_key_file \(path): mode 640 lets others read the key; refused (chmod 600 \(path))")
    }

    /// Any 32 bytes but zeros, as hex in either case with white space around: the same key.
    @Test(arguments: 0 ..< 100) func anyKeyWrittenAsHexReadsBack(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed) &* 7919 &+ 3)
        var bytes = (0 ..< 32).map { _ in UInt8.random(in: 0 ... 255, using: &random) }
        if bytes.allSatisfy({ $0 == 0 }) { bytes[0] = 1 }
        var text = bytes.map { String(format: "%02x", $0) }.joined()
        if seed % 2 == 1 { text = text.uppercased() }
        let space = [" ", "\n", "\t", "\r\n", ""]
        let content = space[seed % 5] + text + space[(seed / 5) % 5]
        #expect(try MAVLinkSigningKey.parse(Array(content.utf8)).get() == bytes)
    }
}
