/// Text helpers for SVG output, without Foundation.
enum SVGFormat {
    /// Escapes text for XML content and attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                // XML 1.0 forbids most control characters; drop them.
                if scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r" { continue }
                if scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `value` with exactly `decimals` digits after the point; large or non-finite values
    /// fall back to Swift's shortest form.
    static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return value.isFinite ? String(value) : "0" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else { return String(value) }
        let units = Int64(scaled)
        let negative = value < 0 && units != 0
        var digits = String(units)
        if decimals > 0 {
            if digits.count <= decimals {
                digits = String(repeating: "0", count: decimals - digits.count + 1) + digits
            }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -decimals))
        }
        return negative ? "-" + digits : digits
    }

    /// A pixel coordinate with one decimal, as short as possible (`12`, `12.5`, `-3.2`).
    static func coordinate(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        guard abs(tenths) < 1e15 else { return "0" }
        let t = Int64(tenths)
        let whole = t / 10, fraction = abs(t % 10)
        let sign = t < 0 && whole == 0 ? "-" : ""
        return fraction == 0 ? sign + String(whole) : sign + String(whole) + "." + String(fraction)
    }
}
