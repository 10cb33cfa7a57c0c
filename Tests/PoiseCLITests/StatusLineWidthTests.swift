import Foundation
import Testing

/// `poise run` on a terminal: the status line fits the terminal's width, and every log line
/// erases it (`\r` ESC `[K`) before it is written, so no line is glued onto the status.
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote))
struct StatusLineWidthTests {
    @Test(arguments: [60, 100])
    func theStatusLineFitsTheTerminalAndLogLinesEraseIt(columns: Int) throws {
        let run = try poiseInTerminal(["run", "--duration", "2"], columns: columns)
        #expect(run.status == 0, "\(run.terminal)")
        let erase = "\r\u{1B}[K"
        // Every redraw: what follows an erase up to the next line end or erase.
        let pieces = run.terminal.components(separatedBy: erase).dropFirst()
        let statuses = pieces.map { $0.components(separatedBy: "\n")[0].replacingOccurrences(of: "\r", with: "") }
            .filter { $0.hasPrefix("t ") }
        #expect(statuses.count >= 2, "\(run.terminal)")
        for status in statuses {
            #expect(status.count < columns, "\(status.count) characters on a \(columns)-column terminal: \(status)")
        }
        #expect(statuses.contains { $0.hasSuffix("…") }, "the full status is longer than \(columns) columns: it is cut, and says so")
        // A log line never starts where a status line is still showing: each line the program
        // writes after a status begins with the erase.
        let lines = run.terminal.components(separatedBy: "\n")
        for line in lines where line.contains("poise: ") || line.contains("[PoiseSensors]") {
            let before = line.components(separatedBy: "poise: ").first ?? ""
            #expect(!before.contains("  late p99") && !before.contains("t 0.") && !before.contains("t 1."),
                    "a log line glued onto the status: \(line.debugDescription)")
        }
    }

    /// Not a terminal: no status line, nothing cut, no escapes.
    @Test func notATerminalHasNoStatusLine() throws {
        let run = try poise(["run", "--duration", "1"])
        #expect(run.status == 0)
        #expect(!run.error.contains("\u{1B}["), "\(run.error)")
    }
}
