import Foundation
import Testing

/// The Monte-Carlo report as a user reads it: each worst trial's drawn values one a line, to
/// four significant digits; Ctrl-C keeps the finished trials and reports them marked PARTIAL,
/// without replacing an earlier plot unless --overwrite asks.
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote))
struct MonteCarloReadabilityTests {
    @Test func drawnValuesAreOneALineWithFourSignificantDigits() throws {
        let run = try poise(["simulate", "--trials", "3", "--duration", "2", "--quiet"])
        #expect(run.status == 0 || run.status == 1, "\(run.error)")
        let lines = run.text.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.count < 200 }, "a line of \(lines.map(\.count).max() ?? 0) characters")
        let drawn = lines.indices.filter { lines[$0] == "    drawn:" }
        #expect(drawn.count == 3, "\(run.text)")
        for start in drawn {
            let values = lines[(start + 1)...].prefix { $0.hasPrefix("      ") }
            #expect(values.count >= 3, "\(run.text)")
            for line in values {
                let parts = line.trimmingCharacters(in: .whitespaces).components(separatedBy: " = ")
                #expect(parts.count == 2 && parts[0].contains("."), "\(line)")
                // Each number: at most 4 significant digits.
                for number in parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "[]")).components(separatedBy: ", ") {
                    let mantissa = number.lowercased().components(separatedBy: "e")[0]
                    let digits = mantissa.filter(\.isNumber).drop { $0 == "0" }
                    #expect(digits.count <= 4 || Double(number) == Double(number).map { $0.rounded() }, "\(line)")
                }
            }
        }
        // The JSON report keeps every digit, for a program to read.
        let json = try poise(["simulate", "--trials", "1", "--duration", "2", "--quiet", "--json"])
        #expect(json.text.contains("\"drawn\": {"), "\(json.text)")
    }

    /// SIGINT once the first trial has finished (the progress bar on a terminal says so).
    func interrupted(plot: String, overwrite: Bool) throws -> TerminalRun {
        try poiseInTerminal(["simulate", "--trials", "400", "--duration", "2", "--jobs", "1", "--plot", plot]
                            + (overwrite ? ["--overwrite"] : []),
                            columns: 120, interruptAfter: " 1/400")
    }

    @Test func ctrlCReportsTheFinishedTrialsMarkedPartialAndKeepsAnEarlierPlot() throws {
        let directory = try temporaryDirectory()
        let plot = directory.appending(path: "p.svg").path
        try "earlier plot\n".write(toFile: plot, atomically: true, encoding: .utf8)
        let run = try interrupted(plot: plot, overwrite: false)
        #expect(run.status == 130, "\(run.terminal)")
        let first = run.output.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("PARTIAL: interrupted by SIGINT after "), "\(run.output)")
        #expect(first.contains(" of 400 trials; every figure below is over the "), "\(first)")
        let finished = Int(first.components(separatedBy: "after ")[1].components(separatedBy: " of")[0]) ?? 0
        #expect(finished >= 1 && finished < 400, "\(first)")
        #expect(run.output.contains("\(finished) trial\(finished == 1 ? "" : "s") of 2 simulated s"), "\(run.output)")
        #expect(run.output.contains("    alone: poise simulate"), "\(run.output)")
        #expect(try String(contentsOfFile: plot, encoding: .utf8) == "earlier plot\n")
        #expect(run.terminal.contains("\(plot) kept as it was: a PARTIAL run does not replace an earlier plot (--overwrite does)"), "\(run.terminal)")
        #expect(run.terminal.contains("the report is PARTIAL"), "\(run.terminal)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["p.svg"])
    }

    @Test func aPartialPlotIsWrittenWhereNoneWasOrWhenAsked() throws {
        let directory = try temporaryDirectory()
        let fresh = directory.appending(path: "fresh.svg").path
        let run = try interrupted(plot: fresh, overwrite: false)
        #expect(run.status == 130, "\(run.terminal)")
        #expect(try String(contentsOfFile: fresh, encoding: .utf8).contains("PARTIAL ("))
        let earlier = directory.appending(path: "earlier.svg").path
        try "earlier plot\n".write(toFile: earlier, atomically: true, encoding: .utf8)
        let asked = try interrupted(plot: earlier, overwrite: true)
        #expect(asked.status == 130, "\(asked.terminal)")
        #expect(try String(contentsOfFile: earlier, encoding: .utf8).contains("PARTIAL ("))
    }
}
