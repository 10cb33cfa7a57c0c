import PoiseTraces
import Testing

/// Every kind of broken text trace gives one precise `FILE:LINE:COLUMN: message`.
@Suite struct MalformedTraceTests {
    static let h = TestFiles.header

    static let corpus: [(String, String)] = [
        ("", "F:1:1: empty trace: no header"),
        ("# only=comments\n", "F:2:1: empty trace: no header"),
        ("t,ax,ay,az,gx,gy\n", "F:1:1: missing required column 'gz'"),
        ("t, ax,ay,az,gx,gy,gz\n", "F:1:3: missing required column 'ax' (' ax' has spaces around it)"),
        ("t,ax,ay,az,gx,gy,gz,ax\n", "F:1:21: duplicate column 'ax'"),
        ("t,ax,ay,az,gx,gy,gz,,x\n", "F:1:21: empty column name"),
        ("t,ax,ay,az,gx,gy,gz,mx,my\n", "F:1:1: columns mx,my,mz must be all present or all absent: missing 'mz'"),
        ("t,ax,ay,az,gx,gy,gz,qw,qx,qy\n", "F:1:1: columns qw,qx,qy,qz must be all present or all absent: missing 'qz'"),
        ("\(h)\n0,1,2,3,4,5\n", "F:2:12: too few fields: expected 7, found 6"),
        ("\(h)\n0,1,2,3,4,5,6,7\n", "F:2:15: too many fields: expected 7"),
        ("\(h)\n0,1,2,abc,4,5,6\n", "F:2:7: expected a number in column 'az', found 'abc'"),
        ("\(h)\n0,1,2,3 ,4,5,6\n", "F:2:7: expected a number in column 'az', found '3 '"),
        ("\(h)\n0,1,2,1e,4,5,6\n", "F:2:7: expected a number in column 'az', found '1e'"),
        ("\(h)\n0,1,2,nan,4,5,6\n", "F:2:7: non-finite value 'nan' in column 'az'"),
        ("\(h)\n0,1,2,-inf,4,5,6\n", "F:2:7: non-finite value '-inf' in column 'az'"),
        ("\(h)\n0,1,2,1e39,4,5,6\n", "F:2:7: value '1e39' out of range in column 'az'"),
        ("\(h)\ninf,1,2,3,4,5,6\n", "F:2:1: non-finite value 'inf' in column 't'"),
        ("\(h)\n1e999,1,2,3,4,5,6\n", "F:2:1: value '1e999' out of range in column 't'"),
        ("\(h)\n0,1,,3,4,5,6\n", "F:2:5: missing value in required column 'ay'"),
        ("\(h)\n,1,2,3,4,5,6\n", "F:2:1: missing value in required column 't'"),
        ("\(h)\n1,1,2,3,4,5,6\n0.5,1,2,3,4,5,6\n", "F:3:1: time not increasing: '0.5' after 1.0"),
        ("\(h)\n1,1,2,3,4,5,6\n1,1,2,3,4,5,6\n", "F:3:1: time not increasing: '1' after 1.0"),
        ("\(h),mx,my,mz\n0,1,2,3,4,5,6,1,,3\n", "F:2:17: empty cell in 'my': mx,my,mz must be all filled or all empty"),
        ("\(h),qw,qx,qy,qz\n0,1,2,3,4,5,6,1,0,0,\n", "F:2:21: empty cell in 'qz': qw,qx,qy,qz must be all filled or all empty"),
        ("# é=1\n\(h),note\n0,1,2,3,4,5,6,a\u{0}b\n", "F:3:16: not a text trace: NUL byte or invalid UTF-8"),
        ("# é=1\n\(h)\n0,1,2,3,4,5,x\u{0}\n", "F:3:14: not a text trace: NUL byte or invalid UTF-8"),
        ("\(h)\n0,1,2,3,4,5,6\n# late comment\n", "F:3:1: expected a number in column 't', found '# late comment'"),
    ]

    @Test(arguments: corpus)
    func reportsPosition(_ input: String, _ expected: String) {
        #expect(TestFiles.error(reading: input) == expected)
    }

    @Test func binaryGarbageIsNotAText() {
        #expect(TestFiles.error(reading: [0x74, 0x2C, 0xFF, 0xFE, 0x0A]) == "F:1:3: not a text trace: NUL byte or invalid UTF-8")
        #expect(TestFiles.error(reading: [0x00, 0x01, 0x02]) == "F:1:1: not a text trace: NUL byte or invalid UTF-8")
        let header = Array("\(Self.h),name\n0,1,2,3,4,5,6,".utf8)
        #expect(TestFiles.error(reading: header + [0xC3, 0x28, 0x0A]) == "F:2:15: not a text trace: NUL byte or invalid UTF-8")
        // Valid UTF-8 in an unknown column is fine.
        #expect(TestFiles.error(reading: header + Array("größe\n".utf8)) == nil)
    }

    @Test func characterColumnsCountCharactersNotBytes() {
        let text = "\(Self.h),name\n0,1,2,3,4,5,6,ü\n1,1,2,3,4,5,6,ü,extra\n"
        #expect(TestFiles.error(reading: text) == "F:3:17: too many fields: expected 8")
    }

    @Test func strayCarriageReturnInACommentIsKept() throws {
        let path = TestFiles.write("# a\rb=1\n\(Self.h)\n0,1,2,3,4,5,6\n")
        let reader = try CSVTraceReader(path: path)
        #expect(reader.metadata.lines == ["# a\rb=1"])
    }

    /// Random damage to valid traces (flipped, inserted, deleted bytes; cuts) never crashes
    /// or hangs, and every error is a positioned message.
    @Test func mutatedTracesNeverCrash() throws {
        var text = "# source=test trial=x\n# free words\n\(Self.h),mx,my,mz,qw,qx,qy,qz,extra\n"
        for row in 0..<40 {
            text += "\(Double(row) * 0.01),1.5,-2,9.81,0.01,0.02,-0.03,20,-5,40,\(row % 3 == 0 ? ",,," : "1,0,0,0,"),\(row)\n"
        }
        let csv = Array(text.utf8)
        let binary = try BinaryTraceTests.bytes(rows: 40)
        var generator = SeededRandom(seed: 0x6D75_7461_7465)
        for (original, name) in [(csv, "m.csv"), (binary, "m.ptrace")] {
            for _ in 0..<300 {
                var bytes = original
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let index = Int.random(in: 0..<bytes.count, using: &generator)
                    switch Int.random(in: 0..<4, using: &generator) {
                    case 0: bytes[index] = UInt8.random(in: 0...255, using: &generator)
                    case 1: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: index)
                    case 2: bytes.remove(at: index)
                    default: bytes = Array(bytes[0..<index])
                    }
                    if bytes.isEmpty { break }
                }
                if let message = TestFiles.error(reading: bytes, name: name) {
                    let positioned = message.hasPrefix("F:") && message.split(separator: ":").count >= 4
                    #expect(positioned, "\(message)")
                }
            }
        }
    }

    /// Random bytes as a whole file, after a valid header, and after the binary magic: each
    /// input ends in records or in an error positioned inside the input, after at most one
    /// `next()` per input byte (so no hang and no unbounded output). Seeded per length.
    @Test(arguments: [1, 7, 100, 5000])
    func randomBytesGiveRecordsOrAPositionedError(length: Int) {
        var generator = SeededRandom(seed: 0x7261_6E64 &+ UInt64(length))
        var errors = 0
        for trial in 0..<20 {
            let noise = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            for bytes in [noise, Array("\(Self.h)\n".utf8) + noise, Array("POISETRC".utf8) + noise] {
                let binary = bytes.starts(with: Array("POISETRC".utf8))
                switch TestFiles.read(bytes, callingNextAtMost: bytes.count + 1) {
                case .records:
                    break
                case .endless:
                    Issue.record("length \(length), trial \(trial): more than \(bytes.count + 1) records from \(bytes.count) bytes")
                case .error(let error):
                    errors += 1
                    // Text: line and character column, both 1-based. Binary: record (0 = the
                    // header) and 1-based byte within it.
                    let lines = bytes.count(where: { $0 == 0x0A }) + 1
                    let positioned = binary
                        ? error.line >= 0 && error.line <= bytes.count && error.column >= 1 && error.column <= bytes.count + 1
                        : error.line >= 1 && error.line <= lines && error.column >= 1 && error.column <= bytes.count + 1
                    #expect(positioned && !error.message.isEmpty,
                            "length \(length), trial \(trial), \(bytes.count) bytes, \(lines) lines: \(error)")
                }
            }
        }
        // Random bytes are almost never a valid trace: the error path is what ran.
        #expect(errors >= 40, "only \(errors) of 60 inputs were refused")
    }
}
