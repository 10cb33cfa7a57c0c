import Glibc
import Synchronization

/// Writes `text` to standard error with one write(2) (whole lines stay whole between
/// threads). While the status line shows, the text starts by erasing it, so a line printed
/// from any thread stands on its own instead of being glued onto the status; the next
/// redraw brings the status back below it.
func printToStandardError(_ text: String) {
    writeToStandardError(StatusLine.replacing(with: text))
}

/// The one-line status `poise run` redraws in place on a terminal.
enum StatusLine {
    static let showing = Atomic<Bool>(false)

    /// Replaces the status line with `text` (no newline).
    static func draw(_ text: String) {
        // Set before writing: a line printed meanwhile then erases whatever is on the line.
        showing.store(true, ordering: .releasing)
        writeToStandardError("\r\u{1B}[K" + text)
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

private func writeToStandardError(_ text: String) {
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
