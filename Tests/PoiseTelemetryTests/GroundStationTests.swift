import Foundation
import Testing

/// A pymavlink ground station (Tests/peer/gcs_peer.py, run as a ``MAVLinkPeer``) against
/// `poise run` on the simulated board: parameters, arming by command, MANUAL_CONTROL,
/// setpoint loss, signing, garbage.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: poisePath), poiseBuiltNote),
       .enabled(if: peerPython != nil, pymavlinkNote))
struct GroundStationTests {
    /// The simulated balancing robot (or quad), tolerant of a loaded machine's late ticks,
    /// armed by command, taking commands from loopback.
    static func config(quad: Bool = false, extra: String = "", telemetry: String = "  accept_commands: true\n") -> String {
        let robot = """
        board:
          kind: sim
        filter:
          name: poise
        controller:
          kind: \(quad ? "quad_x" : "balance")
          balance:
            pitch:
              kp: 30
        safety:
          max_tilt_deg: 45
          arm_tilt_deg: 15
          arm_hold_s: 0.2
          stall_ms: 10000
          sensor_timeout_ms: 10000
          arm_source: command
        loop:
          rate_hz: 200
          overrun_limit: 1000
          gyroscope_bias_time: 0.5
        telemetry:
        \(telemetry)
        """
        // The quad's four ESCs (as configs/sim-quad-x.yaml), so the motors move the stand.
        let escs = (1 ... 4).map {
            "    - {name: esc\($0), kind: pca9685, channel: \($0 - 1), source: motor\($0), input_min: 0, input_max: 1, pulse_min_us: 1000, pulse_max_us: 2000, safe_us: 1000}\n"
        }.joined()
        return robot + extra + (quad ? "outputs:\n  pca9685:\n    frequency_hz: 400\n  channels:\n" + escs : "")
    }

    func run(_ config: String, scenario: [String], duration: Double, file: String = "gcs.yaml", permissions: Int? = nil)
        throws -> (findings: [String: [String: Any]], messages: [[String: Any]], error: String, directory: URL) {
        let directory = FileManager.default.temporaryDirectory.appending(path: "poise-gcs-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appending(path: file)
        try config.write(to: path, atomically: true, encoding: .utf8)
        if let permissions { try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: path.path) }
        let peer = try MAVLinkPeer(python: peerPython!, script: "gcs_peer.py", arguments: scenario)
        let run = try PoiseRunBesidePeer(config: path, peer: peer, duration: duration, in: directory)
        let lines = try peer.messages()
        run.process.waitUntilExit()
        var findings: [String: [String: Any]] = [:]
        for line in lines { if let name = line["finding"] as? String { findings[name] = line } }
        return (findings, lines.filter { $0["type"] != nil }, run.error, directory)
    }

    @Test func parametersListReadSetRefuseAndStore() throws {
        let config = Self.config(extra: "# the operator's note, kept by storage\n")
        let (f, _, error, directory) = try run(config, scenario: ["--scenario", "params"], duration: 12, permissions: 0o600)
        defer { try? FileManager.default.removeItem(at: directory) }
        let names = f["list"]?["names"] as? [String] ?? []
        #expect(names.contains("BAL_PIT_P") && names.contains("SAFE_ARM_TILT") && names.contains("QUAD_PIT_RT_IMAX"), "\(f) \(error)")
        #expect(f["list"]?["count"] as? Int == names.count)
        #expect(f["read"]?["value"] as? Double == 15)
        #expect(f["set"]?["value"] as? Double == 31.5)
        #expect((f["out_of_range"]?["text"] as? String ?? "").contains("SAFE_MAX_TILT not set"), "\(f)")
        #expect((f["restart_only"]?["text"] as? String ?? "").contains("restart"), "\(f)")
        #expect(f["store"]?["result"] as? Int == 0, "\(f)")
        #expect(f["unsupported"]?["result"] as? Int == 3)
        // Stored into the file: the one key set over the link, every other line as it was, the mode kept.
        let path = directory.appending(path: "gcs.yaml").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == config.replacingOccurrences(of: "kp: 30", with: "kp: 31.5"), "\(text)")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
    }

    /// The robot starts 30° off vertical and, disarmed, lies there: every press of "arm" is
    /// refused, with the reason.
    @Test func armRefusedWhenTiltedWithAckAndStatusText() throws {
        let config = Self.config(extra: "simulation:\n  initial_tilt_deg: 30\n")
        let (f, messages, error, directory) = try run(config, scenario: ["--scenario", "arm", "--settle", "1", "--stream", "4"], duration: 10)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(f["arm"]?["result"] as? Int == 1, "\(f) \(error)")   // MAV_RESULT_TEMPORARILY_REJECTED
        let texts = messages.filter { $0["type"] as? String == "STATUSTEXT" }.compactMap { ($0["fields"] as? [String: Any])?["text"] as? String }
        #expect(texts.contains { $0.contains("arming refused: not level") }, "\(texts)")
    }

    /// The quad stand, level: "arm" is refused while the filter initialises, then accepted.
    @Test func armAndDisarmByCommand() throws {
        let config = Self.config(quad: true, extra: "simulation:\n  initial_tilt_deg: 0\n")
        let (f, messages, error, directory) = try run(config, scenario: ["--scenario", "arm", "--settle", "1", "--stream", "6"], duration: 11)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(f["arm"]?["result"] as? Int == 0, "\(f) \(error)")
        #expect(f["disarm"]?["result"] as? Int == 0, "\(f)")
        let texts = messages.filter { $0["type"] as? String == "STATUSTEXT" }.compactMap { ($0["fields"] as? [String: Any])?["text"] as? String }
        #expect(texts.contains("armed: arm command; level, healthy, converged"), "\(texts)")
        #expect(texts.contains("disarmed: disarm command"), "\(texts)")
        let armedBeats = messages.filter {
            $0["type"] as? String == "HEARTBEAT" && (($0["fields"] as? [String: Any])?["base_mode"] as? Int ?? 0) == 129
        }
        #expect(!armedBeats.isEmpty, "a heartbeat with CUSTOM_MODE_ENABLED | SAFETY_ARMED")
    }

    @Test func manualControlTiltsTheQuadThenItsLossFailsSafe() throws {
        let (f, messages, error, directory) = try run(Self.config(quad: true, extra: "simulation:\n  initial_tilt_deg: 0\n"),
                                                      scenario: ["--scenario", "manual", "--settle", "1", "--stream", "3"], duration: 13)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(f["arm"]?["result"] as? Int == 0, "\(f) \(error)")
        // Full forward stick: 15° nose down (MAVLink pitch negative).
        let pitches = messages.filter { $0["type"] as? String == "ATTITUDE" }.compactMap { ($0["fields"] as? [String: Any])?["pitch"] as? Double }
        #expect(pitches.contains { $0 < -0.15 }, "min pitch \(pitches.min() ?? 0)")
        let texts = messages.filter { $0["type"] as? String == "STATUSTEXT" }.compactMap { ($0["fields"] as? [String: Any])?["text"] as? String }
        // 58 characters: two pieces, sharing an id.
        #expect(texts.contains("failsafe: setpoints lost for telemetry.setpoint_ti") && texts.contains("meout_ms"), "\(texts)")
        let critical = messages.filter { $0["type"] as? String == "HEARTBEAT" && (($0["fields"] as? [String: Any])?["system_status"] as? Int) == 5 }
        #expect(!critical.isEmpty)
    }

    @Test func signedFramesAcceptedUnsignedAndReplayedRefused() throws {
        let key = (0 ..< 32).map { String(format: "%02x", ($0 * 7 + 3) & 0xFF) }.joined()
        let directory = FileManager.default.temporaryDirectory.appending(path: "poise-gcs-key-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = directory.appending(path: "link.key").path
        try (key + "\n").write(toFile: keyFile, atomically: true, encoding: .utf8)
        chmod(keyFile, 0o600)
        let config = Self.config(telemetry: "  signing_key_file: \(keyFile)\n")
        let (f, messages, error, runDirectory) = try run(config, scenario: ["--scenario", "signed", "--key", key], duration: 8)
        defer { try? FileManager.default.removeItem(at: runDirectory) }
        #expect((f["unsigned"]?["text"] as? String ?? "").contains("unsigned"), "\(f) \(error)")
        #expect(f["signed"]?["value"] as? Double == 12)
        #expect(f["signed"]?["reply_signed"] as? Bool == true)
        #expect((f["replayed"]?["text"] as? String ?? "").contains("replayed"), "\(f)")
        #expect(messages.allSatisfy { $0["type"] as? String != "BAD_DATA" })
        // A key others may read is refused at start-up, with the reason.
        chmod(keyFile, 0o644)
        let path = directory.appending(path: "open.yaml")
        try config.write(to: path, atomically: true, encoding: .utf8)
        let refused = try poise(["run", "--config", path.path, "--duration", "1", "--telemetry", "127.0.0.1:9", "--quiet"])
        #expect(refused.status != 0 && refused.error.contains("chmod 600"), "\(refused.error)")
    }

    @Test func garbageDatagramsAreIgnored() throws {
        let (f, _, error, directory) = try run(Self.config(), scenario: ["--scenario", "garbage", "--count", "400"], duration: 8)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(f["after_garbage"]?["value"] as? Double == 15, "\(f) \(error)")
    }
}
