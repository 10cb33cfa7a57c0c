import Foundation
import Testing

/// `poise simulate --trials`: a small spread run as a user runs it.
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote), .serialized) struct MonteCarloTests {
    /// A spread small enough for a test, around the built-in balancing robot.
    func spreadFile(_ dir: URL) throws -> String {
        let spread = dir.appending(path: "spread.yaml")
        try """
            simulation.initial_tilt_deg: {uniform: [-8, 8]}
            controller.balance.pitch.kp: {relative: 0.1}
            """.write(to: spread, atomically: true, encoding: .utf8)
        return spread.path
    }

    /// Trial lines of a JSON report, by trial number.
    func trialLines(_ json: String) -> [Int: String] {
        var lines: [Int: String] = [:]
        for line in json.split(separator: "\n") where line.hasPrefix("    {\"trial\": ") {
            let text = String(line.drop(while: { $0 == " " })).trimmingCharacters(in: CharacterSet(charactersIn: ","))
            let number = text.dropFirst("{\"trial\": ".count).prefix(while: \.isNumber)
            lines[Int(number)!] = text
        }
        return lines
    }

    @Test func aSmallSpreadHoldsAndANamedTrialRunsAloneByteForByte() throws {
        let dir = try temporaryDirectory()
        let spread = try spreadFile(dir)
        let plot = dir.appending(path: "mc.svg").path
        let common = ["simulate", "--spread", spread, "--duration", "6", "--seed", "5"]
        let run = try poise(common + ["--trials", "20", "--json", "--plot", plot])
        #expect(run.status == 0, "\(run.error)")
        let json = try #require(try JSONSerialization.jsonObject(with: run.output) as? [String: Any])
        #expect(json["trials_run"] as? Int == 20)
        let rate = try #require(json["success_rate"] as? Double)
        #expect(rate >= 0.9, "\(run.text)")
        let trials = trialLines(run.text)
        #expect(trials.count == 20)
        #expect(try String(contentsOfFile: plot, encoding: .utf8).contains("<svg"))
        // The worst trial, run alone with the command the report gives, is the same trial.
        let worst = try #require((json["worst_trials"] as? [Int])?.first)
        let alone = try poise(common + ["--trial", String(worst), "--json"])
        #expect(alone.status == 0, "\(alone.error)")
        #expect(trialLines(alone.text)[worst] == trials[worst])
        let command = try #require(trials[worst]?.components(separatedBy: "\"alone\": \"").last?.dropLast(2))
        #expect(command == "poise simulate --spread \(spread) --seed 5 --duration 6 --trial \(worst)")
    }

    @Test func theReportDoesNotDependOnTheNumberOfThreads() throws {
        let dir = try temporaryDirectory()
        let common = ["simulate", "--spread", try spreadFile(dir), "--duration", "5", "--trials", "4"]
        let one = try poise(common + ["--jobs", "1"]), two = try poise(common + ["--jobs", "2"])
        #expect(one.status == 0 && two.status == 0, "\(one.error)\(two.error)")
        #expect(one.output == two.output)
        #expect(one.text.contains("success: ") && one.text.contains("worst trials:"))
        #expect(one.text.contains("    alone: poise simulate --spread "))
        // How fast it went is on standard error, apart from the report.
        #expect(one.error.contains("simulated s per second on 1 thread"))
        #expect(two.error.contains("simulated s per second on 2 threads"))
    }

    @Test func spreadProblemsArePositioned() throws {
        let dir = try temporaryDirectory()
        let spread = dir.appending(path: "bad.yaml")
        try "simulation.initial_tilt_deg: {uniform: [-8, 8]}\nsimulation.tilt: {relative: 0.3}\n"
            .write(to: spread, atomically: true, encoding: .utf8)
        let run = try poise(["simulate", "--trials", "3", "--spread", spread.path])
        #expect(run.status == 1)
        #expect(run.error == "\(spread.path):2:1: simulation.tilt: not a configuration key (docs/config.md lists them)\n")
        let print = try poise(["simulate", "--print-spread", "--config", repositoryRoot.appending(path: "configs/sim-quad-x.yaml").path])
        #expect(print.status == 0 && print.text.contains("simulation.gust_torque: {relative: 0.3}"))
    }
}

/// `--shard I/K` and `--merge`: a sweep in parts, run as separate processes as a batch engine
/// runs them, merges into the one-machine report byte for byte; a wrong set of parts is refused.
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote), .serialized) struct MonteCarloShardTests {
    @Test func partsRunApartMergeIntoTheOneMachineReport() throws {
        let dir = try temporaryDirectory()
        let spread = try MonteCarloTests().spreadFile(dir)
        let common = ["simulate", "--spread", spread, "--duration", "6", "--seed", "7", "--trials", "7"]
        let whole = try poise(common + ["--jobs", "2"]), wholeJSON = try poise(common + ["--json"])
        #expect(whole.status == 0 && wholeJSON.status == 0, "\(whole.error)\(wholeJSON.error)")
        var parts: [String] = []
        for index in 0..<3 {
            let part = try poise(common + ["--shard", "\(index)/3", "--jobs", "1"])
            #expect(part.status == 0, "\(part.error)")
            let path = dir.appending(path: "part-\(index).txt").path
            try part.output.write(to: URL(fileURLWithPath: path))
            parts.append(path)
        }
        // Any order of the files.
        let merged = try poise(common + ["--merge"] + parts.reversed())
        #expect(merged.status == 0, "\(merged.error)")
        #expect(merged.output == whole.output)
        let mergedJSON = try poise(common + ["--json", "--merge"] + parts)
        #expect(mergedJSON.output == wholeJSON.output)
        #expect(whole.text.contains("7 trials of 6 simulated s"))

        // Refused, with the file and line: a part missing, twice, cut short, of another sweep.
        let missing = try poise(common + ["--merge", parts[0], parts[2]])
        #expect(missing.status != 0 && missing.error.contains("shard 1/3 missing"), "\(missing.error)")
        let twice = try poise(common + ["--merge", parts[0], parts[1], parts[1]])
        #expect(twice.status != 0 && twice.error.contains("given twice"), "\(twice.error)")
        let cut = dir.appending(path: "cut.txt").path
        let lines = try String(contentsOfFile: parts[1], encoding: .utf8).split(separator: "\n")
        try (lines.dropLast(2).joined(separator: "\n") + "\n").write(toFile: cut, atomically: true, encoding: .utf8)
        let short = try poise(common + ["--merge", parts[0], cut, parts[2]])
        #expect(short.status != 0 && short.error.contains("\(cut):") && short.error.contains("cut short"), "\(short.error)")
        let other = try poise(["simulate", "--spread", spread, "--duration", "6", "--seed", "8", "--trials", "7", "--merge"] + parts)
        #expect(other.status != 0 && other.error.contains("\(parts[0]):2: a shard of another sweep"), "\(other.error)")
    }

    @Test func shardOptionsAreChecked() throws {
        for (arguments, message) in [
            (["simulate", "--shard", "0/2"], "--shard is part of a sweep"),
            (["simulate", "--trials", "4", "--shard", "2/2"], "--shard 2/2: I must be 0…K−1"),
            (["simulate", "--trials", "4", "--shard", "1-2"], "--shard: I/K"),
            (["simulate", "--trials", "2", "--shard", "0/3"], "more parts than the 2 trials"),
            (["simulate", "--trials", "4", "--shard", "0/2", "--json"], "--json goes with --merge"),
        ] {
            let run = try poise(arguments)
            #expect(run.status != 0 && run.error.contains(message), "\(arguments): \(run.error)")
        }
    }
}
