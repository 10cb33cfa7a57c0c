import Foundation

/// Fixed-format numbers for the reports: the same bytes for the same values on every run.
enum Formatting {
    static func fixed(_ x: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", x) }

    /// Shortest text that reads back to the same value (`12`, `0.25`).
    static func number(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : "\(x)"
    }

    /// A word for a shell command line, quoted when it needs to be.
    static func shellWord(_ s: String) -> String {
        let plain = s.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "-_./=:,+@%".unicodeScalars.contains($0) }
        return plain && !s.isEmpty ? s : "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
