/// JSON text for strings (RFC 8259 §7): the one escaper of the project, used by every JSON
/// writer (`poise eval --json`, the Monte-Carlo report) and by the configuration writer's
/// double-quoted YAML strings (YAML 1.2 reads JSON's escapes).
///
/// Escaped: the quotation mark and the reverse solidus; the control characters U+0000–U+001F,
/// as `\b \t \n \f \r` where JSON has a short form and `\u00XX` (lower-case hex) otherwise; and
/// DEL and the C1 controls U+007F–U+009F as `\u00XX`, which JSON allows and YAML requires.
/// Everything else, `/` included, is written as it is. No Foundation: it builds in Embedded Swift.
public enum JSONString {
    /// `text` as a JSON string literal, quotes included.
    public static func quoted(_ text: String) -> String {
        var out = ""
        append(text, to: &out)
        return out
    }

    /// Appends `text` as a JSON string literal, quotes included, to `out`.
    public static func append(_ text: String, to out: inout String) {
        out.unicodeScalars.append("\"")
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{08}": out += "\\b"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\u{0C}": out += "\\f"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                let digits: [Unicode.Scalar] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
                out += "\\u00"
                out.unicodeScalars.append(digits[Int(scalar.value >> 4)])
                out.unicodeScalars.append(digits[Int(scalar.value & 0xF)])
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        out.unicodeScalars.append("\"")
    }
}
