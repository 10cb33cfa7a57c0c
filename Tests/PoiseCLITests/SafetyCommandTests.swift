import Foundation
import Testing

/// The safety rules of docs/safety.md in the whole program: stalls, the systemd watchdog,
/// reloads, oversized files and the files a configuration refers to.
@Suite(.serialized) struct SafetyCommandTests {
    @Test(.enabled(if: poiseIsBuilt, poiseBuiltNote))
    func aStoppedLoopFailsSafeOnItsFirstTickAfterAndStarvesTheWatchdog() throws {
        let dir = try temporaryDirectory()
        let notify = try NotifySocket(path: dir.appending(path: "notify").path)
        let recording = dir.appending(path: "run.csv").path, stats = dir.appending(path: "s.json").path
        // A stall limit well above a loaded test machine's wake-up jitter, well below the stop;
        // overruns tolerated so that a loaded machine's slow ticks do not disarm it before the stop.
        let config = dir.appending(path: "robot.yaml").path
        try String(contentsOf: repositoryRoot.appending(path: "configs/sim-balancing-robot.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "safety:\n", with: "safety:\n  stall_ms: 300\n")
            .replacingOccurrences(of: "loop:\n", with: "loop:\n  overrun_limit: 1000\n")
            .write(toFile: config, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: poisePath)
        process.arguments = ["run", "--config", config, "--record", recording, "--stats-json", stats]
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = notify.path
        environment["WATCHDOG_USEC"] = "200000"
        process.environment = environment
        let stderr = try process.runWritingStandardError(into: dir)
        #expect(notify.waitFor("READY=1"))
        #expect(notify.waitFor("WATCHDOG=1"))
        var armed = false
        for _ in 0..<200 where !armed { usleep(50_000); armed = stderr().contains("armed — level") }
        #expect(armed, "\(stderr())")
        usleep(300_000)
        kill(process.processIdentifier, SIGSTOP)
        while notify.receive() != nil {}   // what was sent before the stop
        var whileStopped = 0
        for _ in 0..<10 { if notify.receive() != nil { whileStopped += 1 } }   // ≥ 1 s
        kill(process.processIdentifier, SIGCONT)
        #expect(whileStopped == 0, "the watchdog was fed while the loop was stopped")
        #expect(notify.waitFor("WATCHDOG=1"), "the watchdog is fed again once the loop ticks")
        usleep(300_000)
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stderr())")
        #expect(stderr().contains("the loop stalled for"), "\(stderr())")
        #expect(stderr().contains("failsafe — loop stalled longer than safety.stall_ms"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats))) as? [String: Any])
        #expect((json["stalls"] as? Int ?? 0) >= 1)
        // In the recording: where the loop's time jumps, the first tick after the stop is
        // failsafe with every output at its safe value (0), and nothing arms again.
        let lines = try String(contentsOfFile: recording, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        let header = lines[0].split(separator: ",")
        let rows = lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) ?? .nan } }
        let t = try #require(header.firstIndex(of: "t")), arm = try #require(header.firstIndex(of: "arm"))
        let outs = header.indices.filter { header[$0].hasPrefix("out_") }
        let jump = try #require(rows.indices.dropFirst().max { rows[$0][t] - rows[$0 - 1][t] < rows[$1][t] - rows[$1 - 1][t] })
        #expect(rows[jump][t] - rows[jump - 1][t] > 0.5)
        let stallRow = try #require((jump - 2...jump).first { rows[$0][arm] == 2 }, "no failsafe at the stall")
        #expect(rows[stallRow - 1][arm] == 1 || stallRow == jump - 1 && rows[jump - 2][arm] == 1)
        for i in outs { #expect(rows[stallRow][i] == 0, "\(header[i])") }
        #expect(!rows[(stallRow + 1)...].contains { $0[arm] == 1 }, "re-armed by itself after the stall")
        // The recording replays to the same states and outputs, stall included (its event).
        let replayed = dir.appending(path: "replayed.csv").path
        let replay = try poise(["replay", recording, "--config", config, "-o", replayed, "--quiet"])
        #expect(replay.status == 0, "\(replay.error)")
        let again = try String(contentsOfFile: replayed, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(again == lines)
    }

    @Test(.enabled(if: poiseIsBuilt, poiseBuiltNote))
    func sighupReportsEveryRestartOnlyKeyWithItsLineAndAppliesTheRest() throws {
        let dir = try temporaryDirectory()
        let config = dir.appending(path: "robot.yaml")
        let original = try String(contentsOf: repositoryRoot.appending(path: "configs/sim-balancing-robot.yaml"), encoding: .utf8)
        try original.write(to: config, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: poisePath)
        process.arguments = ["run", "--config", config.path, "--duration", "30", "--quiet"]
        let notify = try NotifySocket(path: dir.appending(path: "notify").path)
        process.environment = ProcessInfo.processInfo.environment.merging(["NOTIFY_SOCKET": notify.path]) { $1 }
        let stderr = try process.runWritingStandardError(into: dir)
        // The loop is running with the original file once it says READY (however long start-up takes).
        #expect(notify.waitFor("READY=1"))
        let changed = original
            .replacingOccurrences(of: "  rate_hz: 1000\n", with: "  rate_hz: 500\n")
            .replacingOccurrences(of: "  name: poise\n", with: "  name: madgwick\n")
            .replacingOccurrences(of: "  kind: balance\n", with: "  kind: balance\n  balance:\n    pitch: {kp: 7}\n")
        try changed.write(to: config, atomically: true, encoding: .utf8)
        let lineOf = { (text: String) in changed.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix(text) }! + 1 }
        kill(process.processIdentifier, SIGHUP)
        var done = false
        for _ in 0..<200 where !done { usleep(50_000); done = stderr().contains("applied (gains") }
        process.terminate()
        process.waitUntilExit()
        let text = stderr()
        #expect(text.contains("robot.yaml:\(lineOf("  rate_hz: 500")): loop.rate_hz not applied: restart to change"), "\(text)")
        #expect(text.contains("robot.yaml:\(lineOf("  name: madgwick")): filter.name not applied: restart to change"), "\(text)")
        #expect(!text.contains("controller.balance.pitch.kp not applied"))
        #expect(text.contains("applied (gains, limits, output mappings); the keys above need a restart"))
    }

    /// The reload parses on a thread of its own: a SIGTERM is taken at once even while a
    /// reload is stuck reading its file (here a FIFO nobody writes).
    @Test(.enabled(if: poiseIsBuilt, poiseBuiltNote))
    func sigtermIsTakenWhileAReloadIsStuck() throws {
        let dir = try temporaryDirectory()
        let config = dir.appending(path: "robot.yaml")
        try String(contentsOf: repositoryRoot.appending(path: "configs/sim-balancing-robot.yaml"), encoding: .utf8)
            .write(to: config, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: poisePath)
        process.arguments = ["run", "--config", config.path, "--quiet"]
        let notify = try NotifySocket(path: dir.appending(path: "notify").path)
        process.environment = ProcessInfo.processInfo.environment.merging(["NOTIFY_SOCKET": notify.path]) { $1 }
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        #expect(notify.waitFor("READY=1"))
        try FileManager.default.removeItem(at: config)
        #expect(mkfifo(config.path, 0o600) == 0)
        kill(process.processIdentifier, SIGHUP)
        usleep(300_000)
        process.terminate()
        // A bound, not a timing: the old signal thread never got to the SIGTERM at all.
        var exited = false
        for _ in 0..<100 where !exited { usleep(100_000); exited = !process.isRunning }
        if !exited { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(exited, "SIGTERM was not handled while the reload was reading")
    }

    @Test(.enabled(if: poiseIsBuilt, poiseBuiltNote))
    func aConfigurationLargerThanOneMiBIsRefusedByCheckAndRun() throws {
        let dir = try temporaryDirectory()
        let big = dir.appending(path: "big.yaml").path
        let padding = String(repeating: "# padding\n", count: 110_000)   // 1.1 MB of comments
        try ("loop:\n  rate_hz: 200\n" + padding).write(toFile: big, atomically: true, encoding: .utf8)
        for arguments in [["check", big], ["run", "--config", big, "--duration", "1"]] {
            let result = try poise(arguments)
            #expect(result.status != 0)
            #expect(result.error.contains("big.yaml: larger than 1 MiB: refused"), "\(result.error)")
        }
    }

    @Test(.enabled(if: poiseIsBuilt, poiseBuiltNote), arguments: [
        // The column is the offending field's first character, as in every FILE:LINE:COLUMN.
        ("1.0,0.5,0,0,0\n2.0,nan,0,0,0\n", ":3:5"),
        ("1.0,0.5,0,0,0\n2.0,1.5,0,0,0\n", ":3:5"),
        ("1.0,0.5,90,0,0\n", ":2:9"),
    ])
    func checkRefusesTheSetpointFilesRunRefuses(rows: String, position: String) throws {
        let dir = try temporaryDirectory()
        try ("time_s,throttle,pitch_deg,roll_deg,heading_deg\n" + rows)
            .write(to: dir.appending(path: "setpoints.csv"), atomically: true, encoding: .utf8)
        let config = dir.appending(path: "quad.yaml").path
        let text = try String(contentsOf: repositoryRoot.appending(path: "configs/sim-quad-x.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "  quad:\n", with: "  quad:\n    setpoint_file: setpoints.csv\n")
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        let check = try poise(["check", config])
        #expect(check.status != 0)
        #expect(check.error.contains("setpoints.csv" + position), "\(check.error)")
        let run = try poise(["run", "--config", config, "--duration", "1", "--quiet"])
        #expect(run.status != 0)
        #expect(run.error.contains("setpoints.csv" + position), "\(run.error)")
    }

    @Test(.enabled(if: poiseIsBuilt, poiseBuiltNote))
    func checkRefusesAutomaticRearmingOfAQuadrotorWithItsLine() throws {
        let dir = try temporaryDirectory()
        let config = dir.appending(path: "quad.yaml").path
        let text = try String(contentsOf: repositoryRoot.appending(path: "configs/sim-quad-x.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "safety:\n", with: "safety:\n  rearm: when_level\n")
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0 == "  rearm: when_level" }! + 1
        let check = try poise(["check", config])
        #expect(check.status != 0)
        #expect(check.error.contains("quad.yaml:\(line):") && check.error.contains("safety.rearm"), "\(check.error)")
    }
}
