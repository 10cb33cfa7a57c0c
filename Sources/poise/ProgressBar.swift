import Foundation

/// A one-line progress bar on standard error, drawn only when it is a terminal.
final class ProgressBar: Sendable {
    let total: Int?
    let enabled: Bool

    init(total: Int?, enabled: Bool) {
        self.total = total
        self.enabled = enabled && isatty(STDERR_FILENO) == 1
    }

    func update(_ count: Int) {
        guard enabled else { return }
        let line: String
        if let total, total > 0 {
            let fraction = min(1, Double(count) / Double(total))
            let width = 30
            let filled = Int(fraction * Double(width))
            line = "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
                + "] \(Int(fraction * 100))% \(count)/\(total)"
        } else {
            line = "\(count) samples"
        }
        FileHandle.standardError.write(("\r" + line).data(using: .utf8)!)
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write("\r\u{1B}[K".data(using: .utf8)!)
    }
}

/// `value` with `digits` decimals, without Foundation's locale.
func formatted(_ value: Double, digits: Int) -> String {
    String(format: "%.\(digits)f", value)
}

/// The process's peak resident set size so far, kB (getrusage's ru_maxrss).
func peakResidentKilobytes() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss
}
