#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#else
import Glibc
#endif
import Synchronization

/// Writes `text` to standard error with one write(2) (whole lines stay whole between
/// threads): the one way every thread of a run writes there. While the status line shows, the
/// write erases it first and, when `text` ends its line, draws the status again below it, so
/// a line printed from any thread stands on its own and the status stays the last line.
public func printToStandardError(_ text: String) {
    StatusLine.print(text)
}

/// The one-line status `poise run` redraws in place on a terminal.
enum StatusLine {
    /// Held while writing, so one writer's erase, line and redraw are never split by another's.
    static let writing = Atomic<Bool>(false)
    /// The status on the terminal's last line (as drawn, cut to its width); nil when none shows.
    /// Read and written only while `writing` is held.
    nonisolated(unsafe) static var shown: String? = nil

    static func locked(_ body: () -> Void) {
        while !writing.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged { usleep(100) }
        body()
        writing.store(false, ordering: .releasing)
    }

    /// Replaces the status line with `text` (no newline), cut to the terminal's width.
    static func draw(_ text: String) {
        let line = fitted(text, columns: terminalColumns())
        locked {
            writeToStandardError("\r\u{1B}[K" + line)
            shown = line
        }
    }

    /// Writes `text` around the status line (``framed(_:shown:)``).
    static func print(_ text: String) {
        locked {
            let (bytes, status) = framed(text, shown: shown)
            writeToStandardError(bytes)
            shown = status
        }
    }

    /// What writes `text` while `shown` is the status on the last line: it erased first, then
    /// `text`, then, when `text` ends its line, the status again on the new last line; and
    /// the status showing after it.
    static func framed(_ text: String, shown: String?) -> (text: String, shown: String?) {
        guard let shown else { return (text, nil) }
        return text.hasSuffix("\n") ? ("\r\u{1B}[K" + text + shown, shown) : ("\r\u{1B}[K" + text, nil)
    }

    /// `text` cut to fit `columns` (one column kept free: a line that fills the last one
    /// wraps on some terminals, and `\r` would then redraw only its second row); nil columns:
    /// not cut. The status is one character a column (ASCII, °, µ, —).
    static func fitted(_ text: String, columns: Int?) -> String {
        guard let columns, text.count >= columns else { return text }
        let room = max(columns - 1, 0)
        return room > 1 ? String(text.prefix(room - 1)) + "…" : String(text.prefix(room))
    }

    /// The width of the terminal on standard error (TIOCGWINSZ), else `$COLUMNS`; nil when
    /// neither says (not a terminal: nothing is cut).
    static func terminalColumns(environment: [String: String]? = nil) -> Int? {
        var size = winsize()
        if environment == nil, ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        let columns: String? = if let environment { environment["COLUMNS"] } else { getenv("COLUMNS").map { String(cString: $0) } }
        return columns.flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
    }

    /// Leaves the status line as the last one shown, ending it with a newline.
    static func end() {
        locked {
            if shown != nil { writeToStandardError("\n") }
            shown = nil
        }
    }
}

func writeToStandardError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
        var done = 0
        while done < bytes.count {
            let n = write(2, bytes.baseAddress! + done, bytes.count - done)
            if n <= 0 { break }
            done += n
        }
    }
}
