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

    /// `poise run` on `config` (written to `file` in a new directory, or the one of `directory`
    /// as it is) beside the peer running `scenario`.
    func run(_ config: String, scenario: [String], duration: Double, file: String = "gcs.yaml", permissions: Int? = nil,
             arguments: [String] = [], environment: [String: String] = [:], in directory: URL? = nil)
        throws -> (findings: [String: [String: Any]], messages: [[String: Any]], error: String, directory: URL) {
        let directory = directory ?? FileManager.default.temporaryDirectory.appending(path: "poise-gcs-\(getpid())-\(UUID().uuidString.prefix(8))")
        let path = directory.appending(path: file)
        if !FileManager.default.fileExists(atPath: path.path) {
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            try config.write(to: path, atomically: true, encoding: .utf8)
        }
        if let permissions { try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: path.path) }
        let peer = try MAVLinkPeer(python: peerPython!, script: "gcs_peer.py", arguments: scenario)
        let run = try PoiseRunBesidePeer(config: path, peer: peer, duration: duration, arguments: arguments, environment: environment,
                                         in: directory)
        let lines = try peer.messages()
        run.process.waitUntilExit()
        var findings: [String: [String: Any]] = [:]
        for line in lines { if let name = line["finding"] as? String { findings[name] = line } }
        return (findings, lines.filter { $0["type"] != nil }, run.error, directory)
    }

    @Test func parametersListReadSetRefuseAndStore() throws {
        let config = Self.config(extra: "# the operator's note, kept by storage\n")
        let directory = FileManager.default.temporaryDirectory.appending(path: "poise-gcs-\(getpid())-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appending(path: "state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let (f, _, error, _) = try run(config, scenario: ["--scenario", "params"], duration: 12, permissions: 0o600,
                                       arguments: ["--state-dir", state.path], in: directory)
        let names = f["list"]?["names"] as? [String] ?? []
        #expect(names.contains("BAL_PIT_P") && names.contains("SAFE_ARM_TILT") && names.contains("QUAD_PIT_RT_IMAX"), "\(f) \(error)")
        #expect(f["list"]?["count"] as? Int == names.count)
        #expect(f["read"]?["value"] as? Double == 15)
        #expect(f["set"]?["value"] as? Double == 31.5)
        #expect((f["out_of_range"]?["text"] as? String ?? "").contains("SAFE_MAX_TILT not set"), "\(f)")
        #expect((f["restart_only"]?["text"] as? String ?? "").contains("restart"), "\(f)")
        #expect(f["store"]?["result"] as? Int == 0, "\(f)")
        #expect(f["store_text"]?["text"] as? String == "1 parameters stored in parameters.yaml", "\(f)")
        #expect(f["unsupported"]?["result"] as? Int == 3)
        // Stored in the state directory's overlay: the one key set over the link. The file is not touched.
        let path = directory.appending(path: "gcs.yaml").path
        #expect(try String(contentsOfFile: path, encoding: .utf8) == config)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        let overlay = state.appending(path: "parameters.yaml").path
        let stored = try String(contentsOfFile: overlay, encoding: .utf8)
        #expect(stored.hasSuffix("\ncontroller.balance.pitch.kp: 31.5  # was 30.0\n"), "\(stored)")
        #expect(stored.split(separator: "\n").filter { !$0.hasPrefix("#") }.count == 1, "\(stored)")

        // Restarted: the stored value is in force, and the run says so.
        let (again, _, againError, _) = try run(config, scenario: ["--scenario", "readback"], duration: 6,
                                                arguments: ["--state-dir", state.path], in: directory)
        #expect(again["read_back"]?["value"] as? Double == 31.5, "\(again) \(againError)")
        #expect(againError.contains("stored parameters applied from \(overlay): controller.balance.pitch.kp 31.5"), "\(againError)")

        // Merged into the file on the host: that line changes, the comment and the mode stay, the overlay goes.
        let merge = Process()
        merge.executableURL = URL(fileURLWithPath: poisePath)
        merge.arguments = ["merge-parameters", overlay, path, "--clear"]
        merge.standardError = FileHandle.nullDevice
        try merge.run()
        merge.waitUntilExit()
        #expect(merge.terminationStatus == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == config.replacingOccurrences(of: "kp: 30", with: "kp: 31.5"))
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        #expect(!FileManager.default.fileExists(atPath: overlay))
    }

    /// As the installed unit runs it (scripts/poise.service): no --state-dir, systemd's
    /// $STATE_DIRECTORY (StateDirectory=poise), the configuration under a read-only /etc
    /// (ProtectSystem=strict). Storage goes to the state directory; the file stays as it was.
    @Test func theInstalledUnitStoresInItsStateDirectory() throws {
        let unit = try String(contentsOf: repositoryRoot.appending(path: "scripts/poise.service"), encoding: .utf8)
        let lines = unit.split(separator: "\n").map(String.init)
        #expect(lines.contains("StateDirectory=poise") && lines.contains("ProtectSystem=strict"))
        let start = try #require(lines.first { $0.hasPrefix("ExecStart=") })
        #expect(start.contains("--config /etc/poise/poise.yaml") && !start.contains("--state-dir"), "\(start)")

        let directory = FileManager.default.temporaryDirectory.appending(path: "poise-gcs-unit-\(getpid())-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appending(path: "var/lib/poise")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let config = Self.config()
        let (f, _, error, _) = try run(config, scenario: ["--scenario", "params"], duration: 12, file: "etc/poise/poise.yaml",
                                       permissions: 0o444, environment: ["STATE_DIRECTORY": state.path], in: directory)
        #expect(f["store"]?["result"] as? Int == 0, "\(f) \(error)")
        let path = directory.appending(path: "etc/poise/poise.yaml").path
        #expect(try String(contentsOfFile: path, encoding: .utf8) == config)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appending(path: "etc/poise").path) == ["poise.yaml"])
        let stored = try String(contentsOfFile: state.appending(path: "parameters.yaml").path, encoding: .utf8)
        #expect(stored.contains("\ncontroller.balance.pitch.kp: 31.5  # was 30.0\n"), "\(stored)")
    }

    /// Without a state directory storage is refused, with the reason; the file is not touched.
    @Test func withoutAStateDirectoryStorageIsRefused() throws {
        let config = Self.config()
        let (f, _, error, directory) = try run(config, scenario: ["--scenario", "params"], duration: 12,
                                               environment: ["STATE_DIRECTORY": ""])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(f["store"]?["result"] as? Int == 4, "\(f) \(error)")  // MAV_RESULT_FAILED
        #expect(f["store_text"]?["text"] as? String == "not stored: no state directory (--state-dir)", "\(f)")
        #expect(try String(contentsOfFile: directory.appending(path: "gcs.yaml").path, encoding: .utf8) == config)
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
