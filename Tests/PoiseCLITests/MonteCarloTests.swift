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
