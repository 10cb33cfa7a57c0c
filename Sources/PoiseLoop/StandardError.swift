import Glibc

/// Writes `text` to standard error with one write(2) (whole lines stay whole between threads).
func printToStandardError(_ text: String) {
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
