import Foundation
import Testing

/// `poise run` streams its ticks as MAVLink from the telemetry thread, fed by the tick's ring.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: poisePath), poiseBuiltNote),
       .enabled(if: peerPython != nil, pymavlinkNote))
struct RunTelemetryTests {
    @Test func runSendsItsTicksAsMAVLink() throws {
        let peer = try MAVLinkPeer(python: peerPython!)
        // The built-in robot, tolerant of a loaded machine's late ticks and re-arming once
        // level: the stream is what is tested here, not the timing rules (tested elsewhere).
        let directory = FileManager.default.temporaryDirectory.appending(path: "poise-run-telemetry-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appending(path: "robot.yaml")
        let text = try String(contentsOf: repositoryRoot.appending(path: "configs/sim-balancing-robot.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "safety:\n", with: "safety:\n  stall_ms: 10000\n  sensor_timeout_ms: 10000\n  rearm: when_level\n")
            .replacingOccurrences(of: "\nloop:\n", with: "\nloop:\n  overrun_limit: 1000\n")
        try text.write(to: config, atomically: true, encoding: .utf8)
        let run = try poise(["run", "--config", config.path, "--duration", "5", "--telemetry", "127.0.0.1:\(peer.port)", "--quiet"])
        #expect(run.status == 0, "\(run.error)")
        let messages = try peer.messages()
        var counts: [String: Int] = [:]
        for m in messages { counts[m["type"] as? String ?? "?", default: 0] += 1 }
        // 5 s at the default rates: attitude 50 Hz, IMU and outputs 10 Hz, heartbeat 1 Hz.
        #expect((240 ... 260).contains(counts["ATTITUDE"] ?? 0), "\(counts)")
        #expect((45 ... 52).contains(counts["SERVO_OUTPUT_RAW"] ?? 0), "\(counts)")
        #expect((4 ... 6).contains(counts["HEARTBEAT"] ?? 0), "\(counts)")
        #expect(counts["BAD_DATA"] == nil)
        // The balancing robot armed: a heartbeat says so (MAV_MODE_FLAG_SAFETY_ARMED, 128).
        let armed = messages.contains { m in
            m["type"] as? String == "HEARTBEAT" && (((m["fields"] as? [String: Any])?["base_mode"] as? Int ?? 0) & 128) != 0
        }
        #expect(armed, "\(messages.filter { $0["type"] as? String == "HEARTBEAT" })")
    }

    @Test func replayRealtimePlaysAtRecordedSpeed() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "poise-replay-rt-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appending(path: "still.csv").path
        // Two seconds of a recording (the sensor only), then played back at its own speed.
        #expect(try poise(["record", trace, "--duration", "2", "--quiet"]).status == 0)
        let peer = try MAVLinkPeer(python: peerPython!)
        let run = try poise(["replay", trace, "--realtime", "--telemetry", "127.0.0.1:\(peer.port)", "--quiet"])
        #expect(run.status == 0, "\(run.error)")
        let attitude = try peer.messages().filter { $0["type"] as? String == "ATTITUDE" }.count
        // 50 Hz over the trace's own time span (a loaded machine may skip deadlines while
        // recording, which stretches the span beyond the 2 s of ticks).
        let lastRow = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").last ?? ""
        let span = Double(lastRow.split(separator: ",").first ?? "") ?? 2
        let expected = Int(span * 50)
        #expect(abs(attitude - expected) <= 10, "\(attitude) ATTITUDE messages for \(span) s at 50 Hz")
    }
}
