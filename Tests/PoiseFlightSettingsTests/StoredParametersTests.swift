import PoiseFlightSettings
import PropertyBased
import Testing

/// The one reader and writer of the stored parameters' file (`parameters.yaml`), the board's
/// and the host's: what it writes reads back exactly, and a damaged line is refused with its
/// line, the rest of the file read as it was.
@Suite struct StoredParametersTests {
    /// What the reader is told of a key that is no parameter: these are configuration keys.
    static func isKey(_ path: String) -> Bool { ["loop.rate_hz", "controller.kind"].contains(path) }

    static func value(_ parameter: FlightParameter, number: Double, whole: Int) -> Double {
        switch parameter.kind {
        case .number: number
        case .integer: Double(whole)
        case .boolean: Double(whole & 1)
        }
    }

    /// Any parameter at any value, stored over any value: the text written reads back as the
    /// same entry at line 4 (below the header), or, out of the key's range, is refused at line 4.
    @Test func whatIsWrittenReadsBackExactly() async {
        let input = zip(Gen.int(in: 0...(FlightParameters.all.count - 1)), Gen.double(in: -1e6...1e6), Gen.int(in: -1000...1000),
                        Gen.double(in: -1e6...1e6))
        await propertyCheck(count: 300, input: input) { index, number, whole, wasNumber in
            let parameter = FlightParameters.all[index]
            let value = Self.value(parameter, number: number, whole: whole)
            let was = Self.value(parameter, number: wasNumber, whole: whole / 3)
            let text = StoredParameters(entries: [.init(index: index, value: value, was: was)])
                .text(program: "poise run", configuration: "/etc/poise/poise.yaml")
            let (read, problems) = StoredParameters.reading(text, isKey: Self.isKey)
            if let problem = parameter.problem(with: value) {
                #expect(problems == [.init(line: 4, key: parameter.path, message: problem, allowed: parameter.allowed)])
                #expect(problem.hasSuffix("is out of range"), "\(problem)")
            } else {
                #expect(problems.isEmpty, "\(problems)")
                #expect(read.entries == [.init(index: index, value: value, was: was, line: 4)], "\(text)")
            }
        }
    }

    /// A file of good entries with one line damaged: exactly that line is refused, in the
    /// loader's words, and without it the same file reads as before.
    @Test func aDamagedLineIsRefusedWithItsLine() async {
        let input = zip(Gen.int(in: 0...(FlightParameters.all.count - 1)).array(of: 1...6), Gen.double(in: 0...1), Gen.int(in: 0...8),
                        Gen.int(in: 0...6))
        await propertyCheck(count: 300, input: input) { picks, fraction, damage, position in
            var indices: [Int] = []
            for index in picks where !indices.contains(index) { indices.append(index) }
            var lines = ["# stored"]
            for index in indices {
                let parameter = FlightParameters.all[index]
                var value = parameter.minimum + fraction * (parameter.maximum - parameter.minimum)
                if parameter.kind != .number { value = value.rounded() }
                lines.append(parameter.path + ": " + parameter.text(value) + "  # was " + parameter.text(parameter.minimum))
            }
            let good = StoredParameters.reading(lines.joined(separator: "\n"), isKey: Self.isKey)
            #expect(good.problems.isEmpty && good.parameters.entries.map(\.index) == indices, "\(lines)")
            // The damaged line replaces one entry's line, `lines[at]` (line at + 1; never the first
            // entry's for a key written twice, which is refused at its second line).
            let at = 1 + position % indices.count
            guard at > 1 || damage != 3 else { return }
            let parameter = FlightParameters.all[indices[at - 1]]
            let expected: StoredParameters.Problem
            switch damage {
            case 0:
                lines[at] = parameter.path + " 12"
                expected = .init(line: at + 1, message: "expected `key: value` (a key's dotted path, a colon, its value)")
            case 1:
                lines[at] = "no.such.key: 1"
                expected = .init(line: at + 1, key: "no.such.key", message: "unknown key")
            case 2:
                lines[at] = "loop.rate_hz: 100"
                expected = .init(line: at + 1, key: "loop.rate_hz",
                                 message: "not a parameter (only numbers and switches a reload may change are stored on the board)")
            case 3:
                let first = FlightParameters.all[indices[0]]
                lines[at] = first.path + ": " + first.text(first.minimum)
                expected = .init(line: at + 1, key: first.path, message: "written twice")
            case 4:
                lines[at] = parameter.path + ":"
                expected = .init(line: at + 1, key: parameter.path, message: "no value", allowed: parameter.allowed)
            case 5:
                lines[at] = parameter.path + ": fast  # was 1"
                expected = .init(line: at + 1, key: parameter.path, message: "expected " + parameter.typeDescription + ", got `fast`",
                                 allowed: parameter.allowed)
            case 6 where parameter.kind == .boolean:
                lines[at] = parameter.path + ": 2"
                expected = .init(line: at + 1, key: parameter.path, message: "expected a boolean, got `2`", allowed: parameter.allowed)
            case 6:
                let above = parameter.maximum + 1
                lines[at] = parameter.path + ": " + parameter.text(above)
                expected = .init(line: at + 1, key: parameter.path, message: parameter.problem(with: above)!, allowed: parameter.allowed)
            case 7 where parameter.kind == .integer:
                // A whole number past a Double's 53 bits is named to the digit.
                lines[at] = parameter.path + ": 9223372036854775807"
                expected = .init(line: at + 1, key: parameter.path, message: "`9223372036854775807` is out of range", allowed: parameter.allowed)
            default:
                lines[at] = parameter.path + ": nan"
                expected = .init(line: at + 1, key: parameter.path, message: "expected " + parameter.typeDescription + ", got `nan`",
                                 allowed: parameter.allowed)
            }
            let damaged = StoredParameters.reading(lines.joined(separator: "\n"), isKey: Self.isKey)
            #expect(damaged.problems == [expected], "\(lines)")
            #expect(damaged.parameters.entries == good.parameters.entries.filter { $0.line != at + 1 }, "\(lines)")
            // The board's refusal: that one line, with the file's name.
            #expect(throws: StoredParametersError([expected.description(file: "/var/lib/poise/parameters.yaml")])) {
                try StoredParameters(parsing: lines.joined(separator: "\n"), file: "/var/lib/poise/parameters.yaml", isKey: Self.isKey)
            }
        }
    }

    /// A `# was` past Int's range is read and written back without a trap.
    @Test func aHugeWasIsWrittenBack() throws {
        let text = "loop.overrun_limit: 10  # was 9223372036854775807\n"
        let read = try StoredParameters(parsing: text, file: "p.yaml", isKey: Self.isKey)
        #expect(read.entries.first?.was == 0x1p63)
        #expect(read.text(program: "poise-board", configuration: nil).hasSuffix("loop.overrun_limit: 10  # was 9.223372036854776e+18\n"))
    }
}
