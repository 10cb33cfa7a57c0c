import Foundation
import Testing

/// The README and docs/trace-format.md say a trace opens in pandas as
/// `pandas.read_csv("run.csv", comment="#")`. That holds while `#` only ever starts a whole
/// metadata line: pandas skips such lines, and cuts any other line at its first `#`. Without
/// `comment="#"` the first metadata line would be taken for the header, which is why the docs
/// say it.
@Suite struct CSVForOtherReadersTests {
    /// What makes `comment="#"` read `text` as its columns, or the reason it would not.
    static func problem(_ text: String) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        guard lines.first?.hasPrefix("#") == true else { return "no metadata line first" }
        let data = lines.filter { !$0.hasPrefix("#") }
        if let cut = data.firstIndex(where: { $0.contains("#") }) { return "a '#' inside line \(cut): \(data[cut].prefix(80))" }
        guard let header = data.first?.split(separator: ",", omittingEmptySubsequences: false) else { return "no header" }
        if Set(header).count != header.count || header.contains("") { return "header cells not unique and named: \(header)" }
        if let ragged = data.dropFirst().first(where: { $0.split(separator: ",", omittingEmptySubsequences: false).count != header.count }) {
            return "a row not \(header.count) cells wide: \(ragged.prefix(80))"
        }
        return data.count > 1 ? nil : "no rows"
    }

    @Test func everyCSVPoiseWritesReadsWithCommentHash() throws {
        let directory = try temporaryDirectory()
        let trace = try synthTrace(in: directory)
        let estimate = directory.appending(path: "est.csv").path
        #expect(try poise(["replay", trace, "--columns", "all", "-o", estimate, "--quiet"]).status == 0)
        // A recording: the embedded configuration as `# config|` lines and one out_NAME per channel.
        let recording = directory.appending(path: "sim.csv").path
        #expect(try poise(["simulate", "--duration", "0.5", "--record", recording, "--quiet"]).status == 0)
        let ticks = directory.appending(path: "ticks.csv").path
        #expect(try poise(["replay", recording, "-o", ticks, "--quiet"]).status == 0)
        for file in [trace, estimate, recording, ticks] {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(Self.problem(text) == nil, "\(file): \(Self.problem(text) ?? "")")
        }
        #expect(try String(contentsOfFile: recording, encoding: .utf8).contains("\n# config|"))
        let readme = try String(contentsOf: repositoryRoot.appending(path: "README.md"), encoding: .utf8)
        #expect(readme.contains("pandas.read_csv(\"run.csv\", comment=\"#\")"))
        let format = try String(contentsOf: repositoryRoot.appending(path: "docs/trace-format.md"), encoding: .utf8)
        #expect(format.contains("pandas (with `comment=\"#\"`"))
    }

    @Test func theRuleCatchesWhatWouldBreakIt() {
        #expect(Self.problem("# a=1\nt,x\n0,1\n") == nil)
        #expect(Self.problem("t,x\n0,1\n") != nil)
        #expect(Self.problem("# a=1\nt,out_a#b\n0,1\n") != nil)
        #expect(Self.problem("# a=1\nt,x\n0,1,2\n") != nil)
    }

    @Test func aChannelNameThatCannotHeadAColumnIsRefusedByCheck() throws {
        let directory = try temporaryDirectory()
        let robot = try String(contentsOf: repositoryRoot.appending(path: "configs/sim-balancing-robot.yaml"), encoding: .utf8)
        for (name, what) in [("\"left#pwm\"", "`#`"), ("\"left,pwm\"", "`,`"), ("\"left pwm\"", "spaces")] {
            let config = directory.appending(path: "c.yaml").path
            let text = robot.replacingOccurrences(of: "{name: left_pwm,", with: "{name: \(name),")
            #expect(text != robot)
            try text.write(toFile: config, atomically: true, encoding: .utf8)
            let check = try poise(["check", config])
            #expect(check.status == 1, "\(name)")
            #expect(check.error.contains("\(config):") && check.error.contains("out_") && check.error.contains("cannot hold \(what)"),
                    "\(check.error)")
        }
    }
}
