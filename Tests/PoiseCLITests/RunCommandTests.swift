import Foundation
import Testing

/// `poise run`, `poise record` and `poise simulate` as a user runs them, on the simulated board.
@Suite(.serialized) struct RunCommandTests {
    @Test func durationStopsCleanlyWithStatistics() throws {
        let dir = try temporaryDirectory()
        let stats = dir.appending(path: "s.json").path
        let run = try poise(["run", "--duration", "2", "--stats-json", stats, "--quiet"])
        #expect(run.status == 0, "\(run.error)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats))) as? [String: Any])
        // 2 s of the loop's clock at 1 kHz: 2000 deadlines, each either ticked or, on a machine
        // loaded enough to make the loop late, skipped (how many depends on the machine).
        let ticks = try #require(json["ticks"] as? Int), skipped = try #require(json["skipped_deadlines"] as? Int)
        #expect(ticks + skipped == 2000 && ticks > 0, "\(ticks) ticks, \(skipped) skipped")
        #expect(json["seconds"] as? Double == 2)
        for key in ["overruns", "sensor_errors", "dropped_records"] { #expect(json[key] is Int, "\(key)") }
        for key in ["lateness_us", "compute_us", "io_us", "work_us"] {
            let p = try #require(json[key] as? [String: Double], "\(key)")
            #expect(Set(p.keys) == ["p50", "p99", "p999", "max"])
            #expect(p["p50"]! <= p["p99"]! && p["p99"]! <= p["p999"]! && p["p999"]! <= p["max"]!)
        }
    }

    @Test func aRecordedRunReplaysToTheSameEstimatesAndOutputs() throws {
        let dir = try temporaryDirectory()
        for ext in ["csv", "ptrace"] {
            let recording = dir.appending(path: "run.\(ext)").path, replayed = dir.appending(path: "replayed.\(ext)").path
            let run = try poise(["run", "--duration", "5", "--record", recording, "--quiet"])
            #expect(run.status == 0, "\(run.error)")
            let replay = try poise(["replay", recording, "--config", repositoryRoot.appending(path: "configs/sim-balancing-robot.yaml").path,
                                    "-o", replayed, "--quiet"])
            #expect(replay.status == 0, "\(replay.error)")
            let a = try poise(["convert", recording, dir.appending(path: "a.csv").path])
            let b = try poise(["convert", replayed, dir.appending(path: "b.csv").path])
            #expect(a.status == 0 && b.status == 0)
            let rows = { (name: String) throws -> [Substring] in
                try String(contentsOf: dir.appending(path: name), encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
            }
            let original = try rows("a.csv"), again = try rows("b.csv")
            #expect((500...5001).contains(original.count))   // 5 s at 1 kHz, less any skipped deadlines
            #expect(original == again)
            // The robot armed and was driven: the outputs are not all safe.
            #expect(original.contains { $0.contains(",1.0,0.0,") })
        }
    }

    @Test func sigtermMakesEveryOutputSafeAndExitsZero() throws {
        let dir = try temporaryDirectory()
        let recording = dir.appending(path: "run.csv").path, stats = dir.appending(path: "s.json").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: poisePath)
        process.arguments = ["run", "--record", recording, "--stats-json", stats]
        let errorURL = dir.appending(path: "stderr")
        FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Armed by about 4 s (bias, filter start-up, hold); stop it while it balances.
        var armed = false
        for _ in 0..<200 where !armed {
            usleep(50_000)
            armed = ((try? String(contentsOf: errorURL, encoding: .utf8)) ?? "").contains("armed — level")
        }
        #expect(armed)
        usleep(500_000)
        process.terminate()   // SIGTERM
        process.waitUntilExit()
        let error = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 0, "\(error)")
        #expect(error.contains(" s: stopped\n") && error.contains("stopped by SIGTERM"))
        #expect(FileManager.default.fileExists(atPath: stats))
        // The last tick drove every output to its safe value (all seven are 0 while safe).
        let text = try String(contentsOfFile: recording, encoding: .utf8)
        let header = try #require(text.split(separator: "\n").first { $0.hasPrefix("t,") }).split(separator: ",")
        let last = try #require(text.split(separator: "\n").last).split(separator: ",", omittingEmptySubsequences: false)
        let arm = try #require(header.firstIndex(of: "arm"))
        #expect(last[arm] == "0.0", "a stop is a disarm, not a failsafe (2)")
        for (i, name) in header.enumerated() where name.hasPrefix("out_") { #expect(Double(last[i]) == 0, "\(name)") }
        // And the recording is whole: it replays.
        #expect(try poise(["replay", recording, "-o", dir.appending(path: "r.csv").path, "--quiet"]).status == 0)
    }

    // A killed run's recording: RecordingTests (kills at twenty random moments).

    @Test func recordWritesTheSensorOnly() throws {
        let dir = try temporaryDirectory()
        let trace = dir.appending(path: "still.csv").path
        let run = try poise(["record", trace, "--duration", "1", "--quiet"])
        #expect(run.status == 0, "\(run.error)")
        let header = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").first { $0.hasPrefix("t,") }
        #expect(header?.contains("out_") == false)
        #expect(try poise(["eval", trace]).status == 0)
    }

    @Test func simulateReportsTheRobotBalancing() throws {
        let dir = try temporaryDirectory()
        let plot = dir.appending(path: "sim.svg").path
        let run = try poise(["simulate", "--duration", "8", "--plot", plot, "--quiet"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.text.contains("armed at 3.60 s"))
        #expect(run.text.contains("true pitch within 1° from"))
        #expect(try String(contentsOfFile: plot, encoding: .utf8).hasPrefix("<svg") || FileManager.default.fileExists(atPath: plot))
    }

    @Test func badInputIsRefusedWithItsPosition() throws {
        let dir = try temporaryDirectory()
        let config = dir.appending(path: "bad.yaml")
        try "controller:\n  kind: balance\nloop:\n  rate_hz: 5000\n".write(to: config, atomically: true, encoding: .utf8)
        let run = try poise(["run", "--config", config.path, "--duration", "1"])
        #expect(run.status == 1)
        #expect(run.error.contains("bad.yaml:4"))
        #expect(try poise(["run", "--duration", "-1"]).status != 0)
        let linux = dir.appending(path: "linux.yaml")
        try "board:\n  kind: linux\n  i2c_bus: /dev/i2c-99\n".write(to: linux, atomically: true, encoding: .utf8)
        let missing = try poise(["run", "--config", linux.path, "--duration", "1"])
        #expect(missing.status == 1 && missing.error.contains("/dev/i2c-99"))
    }

    @Test func exampleConfigsPassCheckAndTheBuiltInOneIsTheFile() throws {
        for name in ["sim-balancing-robot.yaml", "sim-quad-x.yaml", "attitude-logger.yaml", "balancing-robot-pi.yaml", "quad-x-stand-pi.yaml"] {
            let run = try poise(["check", repositoryRoot.appending(path: "configs/\(name)").path])
            #expect(run.status == 0, "\(name): \(run.error)")
        }
    }
}

@Suite(.serialized) struct ReloadTests {
    @Test func sighupAppliesAGoodFileAndKeepsTheOldValuesForABadOne() throws {
        let dir = try temporaryDirectory()
        let config = dir.appending(path: "robot.yaml")
        let original = try String(contentsOf: repositoryRoot.appending(path: "configs/sim-balancing-robot.yaml"), encoding: .utf8)
        try original.write(to: config, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: poisePath)
        process.arguments = ["run", "--config", config.path, "--duration", "30"]
        let stderr = try process.runWritingStandardError(into: dir)
        func waitFor(_ text: String) -> Bool {
            for _ in 0..<200 { if stderr().contains(text) { return true }; usleep(50_000) }
            return false
        }
        #expect(waitFor("armed — level"))
        // A new gain: applied without stopping.
        try original.replacingOccurrences(of: "  kind: balance\n", with: "  kind: balance\n  balance:\n    pitch: {kp: 7}\n")
            .write(to: config, atomically: true, encoding: .utf8)
        kill(process.processIdentifier, SIGHUP)
        #expect(waitFor("applied (gains, limits, output mappings)"))
        // A bad file: every problem with its line, the old values stay, the loop goes on.
        try (original + "loop:\n  rate_hz: -3\n").write(to: config, atomically: true, encoding: .utf8)
        kill(process.processIdentifier, SIGHUP)
        #expect(waitFor("not applied, the old values stay"))
        #expect(stderr().contains("robot.yaml:"))
        #expect(process.isRunning)
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stderr())")
        #expect(!stderr().contains("failsafe — tilt"))
    }
}
