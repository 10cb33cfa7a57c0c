import Foundation
import Testing

/// The attack suite: `poise run` (the built binary, on the simulated board) with a signed link,
/// attacked from loopback by pymavlink (Tests/peer/gcs_attack.py) as someone on the robot's
/// Wi-Fi would. Bounded floods; assertions on counts and outcomes, not on times.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: poisePath), poiseBuiltNote),
       .enabled(if: peerPython != nil, pymavlinkNote))
struct GroundLinkAttackTests {
    static let key = (0 ..< 32).map { String(format: "%02x", ($0 * 13 + 7) & 0xFF) }.joined()

    /// A directory with the key file (mode 600), the configuration (the quad stand of
    /// GroundStationTests, level, armed by command, the link signed) and a state directory.
    static func setUp() throws -> (directory: URL, config: URL, state: String) {
        let directory = FileManager.default.temporaryDirectory.appending(path: "poise-attack-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let keyFile = directory.appending(path: "link.key").path
        try (key + "\n").write(toFile: keyFile, atomically: true, encoding: .utf8)
        chmod(keyFile, 0o600)
        let state = directory.appending(path: "state").path
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let config = directory.appending(path: "gcs.yaml")
        try GroundStationTests.config(quad: true, extra: "simulation:\n  initial_tilt_deg: 0\n",
                                      telemetry: "  accept_commands: true\n  signing_key_file: \(keyFile)\n")
            .write(to: config, atomically: true, encoding: .utf8)
        return (directory, config, state)
    }

    /// One run of `poise run` beside one scenario of the peer: the findings by name, and the run's standard error.
    static func run(_ setUp: (directory: URL, config: URL, state: String), _ scenario: [String], duration: Double,
                    stateDirectory: Bool = true) throws -> (findings: [String: [String: Any]], error: String) {
        let peer = try MAVLinkPeer(python: peerPython!, script: "gcs_attack.py", arguments: ["--key", key] + scenario)
        let run = try PoiseRunBesidePeer(config: setUp.config, peer: peer, duration: duration,
                                         arguments: stateDirectory ? ["--state-dir", setUp.state] : [], in: setUp.directory)
        let lines = try peer.messages()
        run.process.waitUntilExit()
        var findings: [String: [String: Any]] = [:]
        for line in lines { if let name = line["finding"] as? String { findings[name] = line } }
        return (findings, run.error)
    }

    /// A signed ARM captured in one run and replayed after `poise run` restarted with the same
    /// key is refused (COMMAND_ACK DENIED, "replayed"), nothing arms, and Poise's own signing
    /// timestamps carry on after the first run's.
    @Test func aCapturedSignedArmIsRefusedAfterARestart() throws {
        let s = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: s.directory) }
        let (first, firstError) = try Self.run(s, ["--scenario", "capture", "--settle", "1", "--stream", "8"], duration: 12)
        #expect(first["arm"]?["result"] as? Int == 0, "\(first) \(firstError)")
        let captured = try #require(first["captured"]?["hex"] as? String)
        let (second, secondError) = try Self.run(s, ["--scenario", "replay", "--frame", captured, "--settle", "0.5"], duration: 6)
        #expect(second["replay"]?["result"] as? Int == 2, "\(second) \(secondError)")   // MAV_RESULT_DENIED
        #expect((second["replay"]?["text"] as? String ?? "").contains("replayed"), "\(second)")
        #expect(second["replay"]?["armed_seen"] as? Bool == false)
        let firstLast = try #require(first["sent_timestamps"]?["last"] as? Int)
        let secondFirst = try #require(second["sent_timestamps"]?["first"] as? Int)
        #expect(secondFirst > firstLast)
        #expect(first["sent_timestamps"]?["never_back"] as? Bool == true && second["sent_timestamps"]?["never_back"] as? Bool == true)
        let stateFile = try String(contentsOfFile: s.state + "/mavlink-signing.state", encoding: .utf8)
        #expect(stateFile.contains("stream.255.190.1 = ") && stateFile.contains("clean = 1"), "\(stateFile)")
    }

    /// A key holder's clock a year ahead: refused, logged, not stored; the stream is not locked.
    @Test func aTimestampAYearAheadIsRefusedAndLocksNothing() throws {
        let s = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: s.directory) }
        let (f, error) = try Self.run(s, ["--scenario", "ahead"], duration: 5)
        #expect((f["ahead"]?["text"] as? String ?? "").contains("ahead of this board's clock"), "\(f) \(error)")
        #expect(f["now"]?["value"] as? Double == 22, "\(f)")
        #expect(error.contains("s ahead of this board's clock"), "\(error)")
        let stateFile = try String(contentsOfFile: s.state + "/mavlink-signing.state", encoding: .utf8)
        let stored = stateFile.split(separator: "\n").filter { $0.hasPrefix("stream.") }.compactMap { UInt64($0.split(separator: " ").last ?? "") }
        let now = UInt64((Date().timeIntervalSince1970 - 1_420_070_400) * 100_000)
        #expect(!stored.isEmpty && stored.allSatisfy { $0 < now + 60 * 100_000 }, "\(stateFile)")
    }

    /// 1 KiB datagrams of 53 unsigned PARAM_SETs of an unknown name from the ground station's
    /// address, and a signed DISARM every 0.2 s from the middle of the flood: acknowledged
    /// within a few tries (the issue measured 38 tries, 9 s, before the reserved share).
    @Test func aSignedDisarmGetsThroughAFloodOfUnsignedParamSets() throws {
        let s = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: s.directory) }
        let (f, error) = try Self.run(s, ["--scenario", "disarm_flood", "--count", "3000", "--rate", "1000"], duration: 12)
        let flood = try #require(f["disarm_flood"], "\(f) \(error)")
        #expect(flood["sent"] as? Int == 3000)
        #expect(flood["acknowledged_after_s"] as? Double != nil, "\(flood)")
        #expect((flood["tries"] as? Int ?? 99) <= 5, "\(flood)")
    }

    /// 1 KiB datagrams of 37 signed PARAM_REQUEST_LISTs: answered, and the replies stay bounded
    /// by the rate limit and the outbox (≈ 200 values per request sent when every list was answered).
    @Test func requestListsInDatagramsAreNotAmplified() throws {
        let s = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: s.directory) }
        let (f, error) = try Self.run(s, ["--scenario", "list_amplification", "--count", "20"], duration: 8)
        let result = try #require(f["list_amplification"], "\(f) \(error)")
        let perRequest = try #require(result["values_per_request"] as? Double)
        #expect(perRequest > 0 && perRequest < 20, "\(result)")   // answered, and bounded
    }

    /// Armed, a signed PARAM_SET may narrow a safety limit, never widen one, nor break a
    /// cross-key rule; each refusal comes back with its reason and the value in force.
    @Test func armedSafetyLimitsMayNarrowButNotWiden() throws {
        let s = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: s.directory) }
        let (f, error) = try Self.run(s, ["--scenario", "widen", "--settle", "1", "--stream", "8"], duration: 16)
        #expect(f["arm"]?["result"] as? Int == 0, "\(f) \(error)")
        func texts(_ name: String) -> String { (f[name]?["texts"] as? [String] ?? []).joined() }
        #expect(f["SAFE_MAX_TILT=180"]?["value"] as? Double == 45, "\(f)")
        #expect(texts("SAFE_MAX_TILT=180").contains("widens a safety"), "\(f)")
        #expect(abs((f["SAFE_ARM_HOLD=0"]?["value"] as? Double ?? 0) - 0.2) < 1e-6, "\(f)")
        #expect(texts("SAFE_ARM_HOLD=0").contains("widens a safety"), "\(f)")
        #expect(f["SAFE_ARM_TILT=60"]?["value"] as? Double == 15, "\(f)")
        #expect(texts("SAFE_ARM_TILT=60").contains("SAFE_ARM_TILT not set"), "\(f)")
        #expect(f["SAFE_MAX_TILT=40"]?["value"] as? Double == 40, "\(f)")
        #expect(f["disarm"]?["result"] as? Int == 0, "\(f)")
    }

    /// A FIFO as the key file: `poise run` stops at once with the reason (it used to wait for
    /// a writer forever).
    @Test func aFIFOKeyFileStopsTheStartWithItsReason() throws {
        let s = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: s.directory) }
        let fifo = s.directory.appending(path: "fifo.key").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let config = try String(contentsOf: s.config, encoding: .utf8)
            .replacingOccurrences(of: s.directory.appending(path: "link.key").path, with: fifo)
        try config.write(to: s.config, atomically: true, encoding: .utf8)
        let run = try poise(["run", "--config", s.config.path, "--duration", "1", "--telemetry", "127.0.0.1:9", "--quiet"])
        #expect(run.status != 0)
        #expect(run.error.contains("telemetry.signing_key_file \(fifo): a FIFO, not a regular file"), "\(run.error)")
    }
}
