import Foundation

/// Fixed-format numbers for the reports: the same bytes for the same values on every run.
enum Formatting {
    static func fixed(_ x: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", x) }

    /// Shortest text that reads back to the same value (`12`, `0.25`).
    static func number(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : "\(x)"
    }

    /// `x` to `digits` significant digits, plainly written where that reads well (`0.008123`,
    /// `1.25`, `1235`, `12`), in exponent form outside 1e-4…1e6; integers as they are. For
    /// reading: the JSON report keeps every digit.
    static func significant(_ x: Double, _ digits: Int = 4) -> String {
        guard x.isFinite else { return "\(x)" }
        if x == x.rounded() && abs(x) < 1e6 { return String(Int(x)) }
        let magnitude = abs(x)
        guard magnitude >= 1e-4 && magnitude < 1e6 else { return String(format: "%.\(digits - 1)e", x) }
        let decimals = max(0, digits - 1 - Int(log10(magnitude).rounded(.down)))
        var text = String(format: "%.\(decimals)f", x)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// A word for a shell command line, quoted when it needs to be.
    static func shellWord(_ s: String) -> String {
        let plain = s.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "-_./=:,+@%".unicodeScalars.contains($0) }
        return plain && !s.isEmpty ? s : "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
