import Foundation
import Testing

/// `--quiet` does what its help says: "Print only errors, warnings and results (no status
/// line, periodic log or arming transitions)".
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote))
struct QuietRunTests {
    /// The help's promise, word for word, for every loop command.
    @Test func theHelpSaysWhatQuietLeavesOut() throws {
        for command in ["run", "record", "simulate"] {
            let help = try poise(["help", command])
            #expect(help.text.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
                .contains("Print only errors, warnings and results (no status line, periodic log or arming transitions)"),
                    "\(command)")
        }
    }

    /// A run whose recording has transitions (at least the stop at its end) prints none of
    /// them with --quiet, and prints them without it.
    @Test(arguments: [["run"], ["record"]])
    func aQuietRunPrintsNoTransitions(command: [String]) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let quietRecording = dir.appending(path: "quiet.csv").path
        let arguments = command == ["run"] ? ["run", "--record", quietRecording] : ["record", quietRecording]
        let quiet = try poise(arguments + ["--duration", "1", "--quiet"])
        #expect(quiet.status == 0, "\(quiet.error)")
        #expect(try transitions(in: quietRecording) >= 1)
        // Only warnings may appear (a stall on a loaded machine, a sensor notice).
        let lines = quiet.error.split(separator: "\n")
        #expect(lines.allSatisfy { $0.contains("stalled for") || $0.contains("sensor:") || $0.contains("warning") },
                "\(quiet.error)")
        #expect(quiet.text.isEmpty)

        let loudRecording = dir.appending(path: "loud.csv").path
        let loudArguments = command == ["run"] ? ["run", "--record", loudRecording] : ["record", loudRecording]
        let loud = try poise(loudArguments + ["--duration", "1"])
        #expect(loud.status == 0, "\(loud.error)")
        let timed = loud.error.split(separator: "\n").filter { $0.hasPrefix("poise: ") && $0.contains(" s: ") && !$0.contains("stalled for") }
        let loudTransitions = try transitions(in: loudRecording)
        #expect(loudTransitions >= 1 && timed.count >= loudTransitions, "\(loud.error)")
    }

    /// Ticks of a CSV recording whose `event` column is set (an arming transition).
    func transitions(in path: String) throws -> Int {
        let rows = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        let header = rows[0].split(separator: ",", omittingEmptySubsequences: false)
        let event = try #require(header.firstIndex(of: "event"))
        return rows.dropFirst().filter { row in
            let cells = row.split(separator: ",", omittingEmptySubsequences: false)
            return cells.count > event && (Double(cells[event]) ?? 0) != 0
        }.count
    }
}
