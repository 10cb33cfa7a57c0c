#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#else
import Glibc
#endif
import Synchronization

/// Writes `text` to standard error with one write(2) (whole lines stay whole between
/// threads). While the status line shows, the text starts by erasing it, so a line printed
/// from any thread stands on its own instead of being glued onto the status; the next
/// redraw brings the status back below it.
public func printToStandardError(_ text: String) {
    writeToStandardError(StatusLine.replacing(with: text))
}

/// The one-line status `poise run` redraws in place on a terminal.
enum StatusLine {
    static let showing = Atomic<Bool>(false)

    /// Replaces the status line with `text` (no newline), cut to the terminal's width.
    static func draw(_ text: String) {
        // Set before writing: a line printed meanwhile then erases whatever is on the line.
        showing.store(true, ordering: .releasing)
        writeToStandardError("\r\u{1B}[K" + fitted(text, columns: terminalColumns()))
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

    /// `text`, preceded by what erases the status line if it shows (it then no longer does).
    static func replacing(with text: String) -> String {
        showing.exchange(false, ordering: .acquiringAndReleasing) ? "\r\u{1B}[K" + text : text
    }

    /// Leaves the status line as the last one shown, ending it with a newline.
    static func end() {
        if showing.exchange(false, ordering: .acquiringAndReleasing) { writeToStandardError("\n") }
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
