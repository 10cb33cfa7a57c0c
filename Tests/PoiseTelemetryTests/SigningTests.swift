import Foundation
import Testing
import PoiseTelemetry

/// SHA-256 against FIPS 180-4's test vectors, and MAVLink 2 signing against pymavlink's.
struct SigningTests {
    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func sha256MatchesTheStandardVectors() {
        #expect(hex(SHA256.digest(Array("".utf8))) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(SHA256.digest(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(SHA256.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hex(SHA256.digest([UInt8](repeating: 0x61, count: 1_000_000)))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // Fed in pieces that straddle the 64-byte blocks: the same digest.
        let text = Array("The quick brown fox jumps over the lazy dog, again and again and again and again.".utf8)
        var pieces = SHA256()
        pieces.update(text[..<13]); pieces.update(text[13..<70]); pieces.update(text[70...])
        #expect(pieces.finish() == SHA256.digest(text))
    }

    @Test func signedFramesVerifyAndReplaysAreRefused() throws {
        let key = try MAVLinkSigningKey(bytes: (0 ..< 32).map { UInt8($0) })
        var framer = MAVLinkFramer(systemID: 255, componentID: 190)
        framer.incompatFlags = MAVLinkFramer.signedFlag
        var signer = MAVLinkSigner(key: key)
        var checker = MAVLinkSignatureChecker(key: key)
        let now = 1_800_000_000.0
        func frame(_ value: Float) -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: 300)
            var m = ParamSet()
            m.paramValue = value
            m.paramID = MAVLinkText.bytes("BAL_PIT_P")
            return buffer.withUnsafeMutableBytes { raw in
                let length = signer.sign(raw, length: framer.encode(m, into: raw), unixTime: now)
                return Array(raw[0 ..< length])
            }
        }
        let first = frame(1), second = frame(2)
        guard case .success(let (a, _)) = MAVLinkDecoder.decode(first), case .success(let (b, _)) = MAVLinkDecoder.decode(second) else {
            Issue.record("signed frames did not decode")
            return
        }
        #expect(checker.check(a, unixTime: now) == .accepted)
        #expect(checker.check(b, unixTime: now) == .accepted)
        #expect(checker.check(a, unixTime: now) == .replayed)
        var tampered = frame(3)
        tampered[tampered.count - 1] ^= 1   // the signature's last byte
        if case .success(let (t, _)) = MAVLinkDecoder.decode(tampered) { #expect(checker.check(t, unixTime: now) == .badSignature) }
        var wrong = MAVLinkSignatureChecker(key: try MAVLinkSigningKey(bytes: [UInt8](repeating: 9, count: 32)))
        #expect(wrong.check(b, unixTime: now) == .badSignature)
        // A new stream more than a minute old is stale.
        var late = MAVLinkSignatureChecker(key: key)
        #expect(late.check(a, unixTime: now + 120) == .replayed)
    }

    @Test func keyFilesMustBePrivate() throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "poise-key-\(getpid())").path
        defer { unlink(path) }
        try String(repeating: "ab", count: 32).write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o644)
        #expect(throws: TelemetryError.self) { try MAVLinkSigningKey(file: path) }
        chmod(path, 0o600)
        #expect(try MAVLinkSigningKey(file: path).bytes == [UInt8](repeating: 0xAB, count: 32))
    }

    /// pymavlink signs a PARAM_SET with a key; Poise's checker accepts it (and pymavlink's
    /// CRC_EXTRA and layout of every message Poise takes agree with Poise's decoder).
    @Test(.enabled(if: peerPython != nil, pymavlinkNote))
    func pymavlinkSignedFramesVerify() throws {
        let script = """
        import os, sys
        os.environ["MAVLINK20"] = "1"
        from pymavlink.dialects.v20 import common as m
        mav = m.MAVLink(None, srcSystem=255, srcComponent=190)
        mav.signing.secret_key = bytes(range(32)); mav.signing.link_id = 3
        mav.signing.sign_outgoing = True; mav.signing.timestamp = 123456789
        out = [m.MAVLink_param_set_message(1, 1, b"BAL_PIT_P", 31.5, 9).pack(mav)]
        mav.signing.sign_outgoing = False
        out.append(m.MAVLink_param_request_read_message(1, 1, b"SAFE_ARM_TILT", -1).pack(mav))
        out.append(m.MAVLink_param_request_list_message(1, 1).pack(mav))
        out.append(m.MAVLink_command_long_message(1, 1, 400, 0, 1, 0, 0, 0, 0, 0, 0).pack(mav))
        out.append(m.MAVLink_manual_control_message(1, 1000, -500, 500, 250, 3).pack(mav))
        out.append(m.MAVLink_command_ack_message(400, 1).pack(mav))
        out.append(m.MAVLink_statustext_message(2, b"failsafe: sensor lost").pack(mav))
        out.append(m.MAVLink_param_value_message(b"BAL_PIT_P", 2.5, 9, 40, 3).pack(mav))
        sys.stdout.write("\\n".join(x.hex() for x in out))
        """
        let process = Process()
        process.executableURL = peerPython!
        process.arguments = ["-c", script]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let frames = text.split(separator: "\n").map { line in
            stride(from: 0, to: line.count, by: 2).map { UInt8(line.dropFirst($0).prefix(2), radix: 16)! }
        }
        #expect(frames.count == 8)
        var decoded: [MAVLinkFrame] = []
        for bytes in frames {
            guard case .success(let (frame, length)) = MAVLinkDecoder.decode(bytes) else {
                Issue.record("did not decode \(bytes.prefix(12))")
                continue
            }
            #expect(length == bytes.count)
            decoded.append(frame)
        }
        guard decoded.count == 8 else { return }
        var checker = MAVLinkSignatureChecker(key: try MAVLinkSigningKey(bytes: (0 ..< 32).map { UInt8($0) }))
        #expect(decoded[0].signature?.linkID == 3)
        #expect(checker.check(decoded[0], unixTime: MAVLinkSigning.epochOffset + 1234) == .accepted)
        if case .paramSet(let m) = decoded[0].packet { #expect(m.paramValue == 31.5 && MAVLinkText.string(m.paramID) == "BAL_PIT_P") }
        #expect(checker.check(decoded[1], unixTime: 0) == .unsigned)
        if case .paramRequestRead(let m) = decoded[1].packet { #expect(m.paramIndex == -1 && MAVLinkText.string(m.paramID) == "SAFE_ARM_TILT") }
        if case .commandLong(let m) = decoded[3].packet { #expect(m.command == 400 && m.params[0] == 1 && m.targetSystem == 1) }
        if case .manualControl(let m) = decoded[4].packet { #expect(m.x == 1000 && m.y == -500 && m.z == 500 && m.r == 250 && m.buttons == 3) }
        if case .commandAck(let m) = decoded[5].packet { #expect(m.command == 400 && m.result == 1) }
        if case .statusText(let m) = decoded[6].packet { #expect(MAVLinkText.string(m.text) == "failsafe: sensor lost" && m.severity == 2) }
        if case .paramValue(let m) = decoded[7].packet { #expect(m.paramValue == 2.5 && m.paramCount == 40 && m.paramIndex == 3) }
    }
}
