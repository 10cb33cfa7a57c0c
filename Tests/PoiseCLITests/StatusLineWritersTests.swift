import Foundation
import Testing

/// `poise run` on a terminal: whatever writes a line while the status line shows (here the
/// SIGHUP handler, the arming transitions, the driver's log) erases the status first, so the
/// line stands on its own, and the status is drawn again below it.
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote))
struct StatusLineWritersTests {
    /// What a terminal shows after `text`: carriage return, line feed, erase to the end of
    /// the line (ESC [ K) and printable characters; other escapes change nothing here.
    static func screen(_ text: String) -> [String] {
        var lines: [[Unicode.Scalar]] = [[]]
        var column = 0
        var scalars = text.unicodeScalars.makeIterator()
        while let s = scalars.next() {
            switch s {
            case "\r": column = 0
            case "\n": lines.append([]); column = 0
            case "\u{1B}":
                // A control sequence: ESC [ parameters final-byte.
                guard scalars.next() == "[" else { continue }
                while let c = scalars.next() {
                    if c.value >= 0x40 && c.value <= 0x7E {
                        if c == "K" { lines[lines.count - 1].removeSubrange(min(column, lines[lines.count - 1].count)...) }
                        break
                    }
                }
            default:
                var line = lines[lines.count - 1]
                while line.count < column { line.append(" ") }
                if column < line.count { line[column] = s } else { line.append(s) }
                lines[lines.count - 1] = line
                column += 1
            }
        }
        return lines.map { String(String.UnicodeScalarView($0)) }
    }

    @Test func aSIGHUPMessageStandsOnItsOwnLineAndTheStatusComesBackBelowIt() throws {
        let hangUp = "poise: SIGHUP: running the built-in configuration, nothing to reload"
        // SIGHUP once the status shows; SIGINT once its message does (states, not times).
        let run = try poiseInTerminal(["run", "--duration", "30"], columns: 100, interruptAfter: "SIGHUP: running",
                                      hangUpAfter: "\u{1B}[Kt ")
        #expect(run.terminal.contains("stopped by SIGINT"), "\(run.terminal)")
        let lines = Self.screen(run.terminal)
        #expect(lines.contains(hangUp), "the SIGHUP message is not a line of its own:\n\(lines.joined(separator: "\n"))")
        // Written on top of the status: the status was erased first, and drawn again right after.
        let written = try #require(run.terminal.range(of: hangUp))
        let before = run.terminal[..<written.lowerBound], after = run.terminal[written.upperBound...]
        #expect(before.hasSuffix("\r\u{1B}[K") || before.hasSuffix("\n"), "\(before.suffix(120).debugDescription)")
        let next = after.drop(while: \.isNewline)
        #expect(next.hasPrefix("t ") || next.hasPrefix("\u{1B}[Kt "), "no status right after the message: \(after.prefix(120).debugDescription)")
        // No remains of a status on any line: a program's line starts with its own words, and
        // the status shows once, as the last one drawn.
        for line in lines where line.contains("poise: ") {
            #expect(line.hasPrefix("poise: "), "a line with the status's remains: \(line.debugDescription)")
        }
        for line in lines where line.contains("[PoiseSensors]") {
            #expect(line.first?.isNumber == true, "a driver's line with the status's remains: \(line.debugDescription)")
        }
        let statuses = lines.filter { $0.hasPrefix("t ") }
        #expect(statuses.count == 1, "\(statuses)")
        #expect(!lines.contains { !$0.hasPrefix("t ") && $0.contains("  pitch ") }, "\(lines.joined(separator: "\n"))")
    }
}
