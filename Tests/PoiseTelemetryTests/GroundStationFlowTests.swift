import Foundation
import Testing

/// The issue's "done when": a pymavlink ground station (Tests/peer/gcs_flow.py) lists the
/// parameters, changes a gain, arms, drives the simulated balancing robot forward and back
/// with MANUAL_CONTROL and disarms, against `poise run --record` on the simulated board. The
/// peer paces itself by Poise's ATTITUDE messages, so each phase is a count of Poise's ticks;
/// what happened is read from the recording.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: poisePath), poiseBuiltNote),
       .enabled(if: peerPython != nil, pymavlinkNote))
struct GroundStationFlowTests {
    /// The shipped simulated robot (configs/sim-balancing-robot.yaml, as a profile: its H-bridge
    /// and its accelerometer calibration — uncalibrated, the tilt estimate's offset makes the
    /// robot creep) with the ground-station tests' loop and safety settings: held upright until
    /// armed by command; full stick is 0.4 m/s.
    static let config = GroundStationTests.config(
        extra: "input:\n  sticks:\n    max_speed_m_s: 0.4\nsimulation:\n  initial_tilt_deg: 5\n",
        telemetry: "  accept_commands: true\n  setpoint_timeout_ms: 2000\n")
        .replacingOccurrences(of: "board:\n  kind: sim\n", with: "board:\n  kind: sim\n  profile: \(shippedRobot)\n")
    static let shippedRobot = repositoryRoot.appending(path: "configs/sim-balancing-robot.yaml").path

    /// A recording as rows of named columns (empty cells NaN).
    struct Recording {
        let columns: [String]
        let rows: [[Double]]
        init(path: String) throws {
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
            columns = lines.first.map { $0.split(separator: ",").map(String.init) } ?? []
            rows = lines.dropFirst().map { line in
                line.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) ?? .nan }
            }
        }
        func column(_ name: String) -> [Double] {
            guard let i = columns.firstIndex(of: name) else { return [] }
            return rows.map { $0[i] }
        }
        /// Every output column, row by row.
        var outputs: [[Double]] {
            let indexes = columns.indices.filter { columns[$0].hasPrefix("out_") }
            return rows.map { row in indexes.map { row[$0] } }
        }
    }

    /// `poise run` with `config` beside the peer `script`, stopped (SIGINT) once the peer is done;
    /// the peer's findings by name and the run's standard error.
    static func run(_ config: String, in directory: URL, script: String, arguments: [String], record: String? = nil)
        throws -> (findings: [String: [String: Any]], error: String) {
        let configPath = directory.appending(path: "robot.yaml")
        try config.write(to: configPath, atomically: true, encoding: .utf8)
        let peer = try MAVLinkPeer(python: peerPython!, script: script, arguments: arguments)
        // --duration only bounds a peer that never finishes; the run is stopped when it does.
        let run = try PoiseRunBesidePeer(config: configPath, peer: peer, duration: 120,
                                         arguments: record.map { ["--record", $0] } ?? [], in: directory)
        let lines = try peer.messages()
        run.process.interrupt()
        run.process.waitUntilExit()
        var f: [String: [String: Any]] = [:]
        for line in lines { if let name = line["finding"] as? String { f[name] = line } }
        return (f, run.error)
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appending(path: "poise-flow-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func listSetArmDriveForwardAndBackDisarm() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let recording = directory.appending(path: "flow.csv").path
        let (f, error) = try Self.run(Self.config, in: directory, script: "gcs_flow.py",
                                      arguments: ["--gain", "33", "--stick", "600", "--phase", "200"], record: recording)
        try #require(f["done"] != nil, "\(f) \(error)")

        // Every parameter listed; the gain changed and read back.
        let count = try #require(f["list"]?["count"] as? Int)
        #expect(count > 50 && f["list"]?["indexes"] as? Int == count && f["list"]?["names"] as? Int == count, "\(f["list"]!)")
        #expect(f["list"]?["pit_p"] as? Double == 30)
        #expect(f["set"]?["value"] as? Double == 33 && f["read_back"]?["value"] as? Double == 33, "\(f)")
        // Armed and disarmed, acknowledged and in the heartbeat.
        #expect(f["arm"]?["result"] as? Int == 0, "\(f["arm"]!)")
        #expect((f["armed_heartbeat"]?["base_mode"] as? Int).map { $0 & 128 != 0 } == true)
        #expect(f["disarm"]?["result"] as? Int == 0 && (f["disarmed_heartbeat"]?["base_mode"] as? Int).map { $0 & 128 == 0 } == true, "\(f)")
        #expect(["stand", "forward", "backward", "stop"].allSatisfy { f[$0]?["paced"] as? Bool == true }, "\(f)")

        // The recording: armed by command, then disarmed by command.
        let r = try Recording(path: recording)
        let events = r.column("event"), arm = r.column("arm")
        let armedAt = try #require(events.firstIndex(of: 15), "no commandArmed event")
        let disarmedAt = try #require(events.lastIndex(of: 16), "no commandDisarmed event")
        #expect(armedAt < disarmedAt && arm[armedAt ..< disarmedAt].allSatisfy { $0 == 1 }, "stayed armed in between")
        // The sticks as setpoints: 0.6 of input.sticks.max_speed_m_s forward, then back.
        let setpoint = r.column("sp_speed"), speed = r.column("true_speed"), received = r.column("sp_rx_t")
        let forward = try #require(setpoint.firstIndex { $0 > 0 })
        let backward = try #require(setpoint.firstIndex { $0 < 0 })
        let stopped = try #require(setpoint[backward...].firstIndex { $0 == 0 })
        #expect(Float(setpoint[forward]) == Float(0.6) * 0.4 && Float(setpoint[backward]) == -Float(0.6) * 0.4)
        #expect(armedAt < forward && forward < backward && backward < stopped && stopped < disarmedAt)
        #expect(received[forward].isFinite && received[forward] <= r.column("tick_t")[forward] + r.column("late_ms")[forward] / 1000 + 0.01)
        // The robot follows: its true speed over each phase's second half, and its position
        // (the true speed summed over the ticks) out during the forward phase, back during the
        // backward one.
        func mean(_ range: Range<Int>) -> Double { speed[range].reduce(0, +) / Double(range.count) }
        let forwardSpeed = mean((forward + backward) / 2 ..< backward)
        let backwardSpeed = mean((backward + stopped) / 2 ..< stopped)
        #expect(forwardSpeed > 0.05 && backwardSpeed < -0.05, "forward \(forwardSpeed) m/s, backward \(backwardSpeed) m/s")
        let dt = 1.0 / 200
        let travelled = speed[forward ..< backward].reduce(0, +) * dt
        let returned = speed[backward ..< stopped].reduce(0, +) * dt
        #expect(travelled > 0.1 && returned < -0.1, "forward \(travelled) m, back \(returned) m")

        // The new gain took effect: replayed with it, the armed outputs are the recording's to
        // the bit; with the gain the run started with, they are not.
        let newGain = directory.appending(path: "gain33.yaml")
        try Self.config.replacingOccurrences(of: "kp: 30", with: "kp: 33").write(to: newGain, atomically: true, encoding: .utf8)
        let replayed = directory.appending(path: "replayed33.csv").path, old = directory.appending(path: "replayed30.csv").path
        #expect(try poise(["replay", recording, "--config", newGain.path, "-o", replayed, "--quiet"]).status == 0)
        #expect(try poise(["replay", recording, "-o", old, "--quiet"]).status == 0)
        let armed = armedAt ..< disarmedAt
        #expect(Array(try Recording(path: replayed).outputs[armed]) == Array(r.outputs[armed]), "replayed with kp 33")
        #expect(Array(try Recording(path: old).outputs[armed]) != Array(r.outputs[armed]), "replayed with kp 30")
        // The replay writes the pilot's columns as recorded (NaN, an empty cell, compared as text).
        let again = try Recording(path: replayed)
        for name in ["sp_rx_t", "late_ms", "compute_ms", "sp_speed", "sp_turn_rate", "true_speed"] {
            #expect(again.column(name).map(\.description) == r.column(name).map(\.description), "\(name)")
        }
    }

    /// A short, bounded flood of random and hostile datagrams at a signed link (the 10-minute
    /// one is `scripts/bench-gcs flood`, docs/results.md): every parameter reads the same
    /// afterwards and nothing armed.
    @Test func floodChangesNothing() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = (0 ..< 32).map { String(format: "%02x", ($0 * 11 + 5) & 0xFF) }.joined()
        let keyFile = directory.appending(path: "link.key").path
        try (key + "\n").write(toFile: keyFile, atomically: true, encoding: .utf8)
        chmod(keyFile, 0o600)
        let config = Self.config.replacingOccurrences(of: "  accept_commands: true\n", with: "  accept_commands: true\n  signing_key_file: \(keyFile)\n")
        let (f, error) = try Self.run(config, in: directory, script: "gcs_load.py",
                                      arguments: ["--mode", "flood", "--count", "3000", "--rate", "3000", "--seconds", "30", "--key", key])
        let load = try #require(f["load"], "\(f) \(error)")
        let before = load["params_before"] as? [String: Double] ?? [:], after = load["params_after"] as? [String: Double] ?? [:]
        #expect(before.count > 50 && before == after, "\(before.count) parameters before, \(after.count) after")
        #expect(load["sent"] as? Int == 3000)
        #expect(load["armed_seen"] as? Bool == false)
    }
}
