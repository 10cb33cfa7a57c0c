import Foundation
import PoiseJSON
import PropertyBased
import Testing

@Suite struct JSONStringTests {
    /// Any string: a quarter control characters, a quarter ASCII (quotes, backslashes) with DEL
    /// and the C1 controls, half from the whole Unicode range.
    static let anyString =
        Gen<UInt32>.value(in: 0...(4 * 0x110000 - 1)).map { r -> Unicode.Scalar in
            let x = r / 4
            switch r % 4 {
            case 0: return Unicode.Scalar(x % 0x20)!
            case 1: return Unicode.Scalar(x % 0xA0)!
            default: return Unicode.Scalar(x) ?? "\u{FFFD}"  // a surrogate's code point is no scalar
            }
        }
        .array(of: 0...40)
        .map { scalars in
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            return text
        }

    @Test func anyStringRoundTripsThroughJSONSerialization() async {
        await propertyCheck(count: 500, input: Self.anyString) { text in
            let literal = JSONString.quoted(text)
            let read = try? JSONSerialization.jsonObject(with: Data(literal.utf8), options: .fragmentsAllowed) as? String
            #expect(read == text, "\(literal)")
            // Inside an object too, as the writers use it.
            let object = "{" + literal + ":" + literal + "}"
            let dictionary = try? JSONSerialization.jsonObject(with: Data(object.utf8)) as? [String: String]
            #expect(dictionary == [text: text])
        }
    }

    @Test func escapesWhatRFC8259RequiresInItsShortForms() {
        #expect(JSONString.quoted("") == "\"\"")
        #expect(JSONString.quoted("a\"b\\c/d") == "\"a\\\"b\\\\c/d\"")
        #expect(JSONString.quoted("\u{08}\t\n\u{0C}\r") == "\"\\b\\t\\n\\f\\r\"")
        #expect(JSONString.quoted("\u{00}\u{01}\u{1F}") == "\"\\u0000\\u0001\\u001f\"")
        #expect(JSONString.quoted("\u{7F}\u{85}\u{9F}\u{A0}é°✓") == "\"\\u007f\\u0085\\u009f\u{A0}é°✓\"")
    }

    @Test func appendsInPlace() {
        var out = "{\"name\":"
        JSONString.append("x\ty", to: &out)
        #expect(out == "{\"name\":\"x\\ty\"")
    }
}
