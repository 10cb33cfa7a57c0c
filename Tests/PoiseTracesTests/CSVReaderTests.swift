import PoiseMath
import PoiseTraces
import Testing

@Suite struct CSVReaderTests {
    @Test func readsMetadataHeaderAndRows() throws {
        let path = TestFiles.write("""
        # source=BROAD trial=01 rate_hz=285.7
        # movement=1:2
        # free comment: not key=value
        t,ax,ay,az,gx,gy,gz,mx,my,mz,qw,qx,qy,qz
        0,1,2,3,0.1,0.2,0.3,10,20,30,1,0,0,0
        0.5,-1,-2,-3,-0.1,-0.2,-0.3,,,,,,,

        """)
        var reader = try CSVTraceReader(path: path)
        #expect(reader.metadata["source"] == "BROAD")
        #expect(reader.metadata["rate_hz"] == "285.7")
        #expect(reader.metadata["movement"] == "1:2")
        #expect(reader.metadata["free"] == nil)
        #expect(reader.metadata.lines.count == 3)
        #expect(reader.columns.count == 14)
        let first = try #require(try reader.next())
        #expect(reader.line == 5)
        #expect(first == TraceSample(time: 0, accelerometer: [1, 2, 3], gyroscope: [0.1, 0.2, 0.3],
                                     magnetometer: [10, 20, 30], truth: Quaternion(w: 1, x: 0, y: 0, z: 0)))
        let second = try #require(try reader.next())
        #expect(second.magnetometer == nil)
        #expect(second.truth == nil)
        #expect(second.accelerometer == [-1, -2, -3])
        #expect(try reader.next() == nil)
        #expect(try reader.next() == nil)
    }

    @Test func columnsInAnyOrderWithExtraColumns() throws {
        let path = TestFiles.write("gz,label,gy,gx,az,ay,ax,t,temp\n3,walk,2,1,9.8,0,0,1.5,21.25\n")
        var reader = try CSVTraceReader(path: path)
        let sample = try #require(try reader.next())
        #expect(sample.time == 1.5)
        #expect(sample.gyroscope == [1, 2, 3])
        #expect(sample.accelerometer == [0, 0, 9.8])
        #expect(sample.magnetometer == nil)
        #expect(String(decoding: reader.cellText(1), as: UTF8.self) == "walk")
        #expect(try reader.doubleValue(ofColumn: 8) == 21.25)
        #expect(reader.layout.isExtra(1) && reader.layout.isExtra(8) && !reader.layout.isExtra(0))
    }

    @Test func acceptsCRLFBlankLinesAndNoFinalNewline() throws {
        let path = TestFiles.write("# a=b\r\nt,ax,ay,az,gx,gy,gz\r\n0,1,2,3,4,5,6\r\n\r\n1,1,2,3,4,5,6")
        var reader = try CSVTraceReader(path: path)
        #expect(reader.metadata["a"] == "b")
        #expect(reader.metadata.lines == ["# a=b"])
        #expect(try reader.next()?.gyroscope == [4, 5, 6])
        #expect(try reader.next()?.time == 1)
        #expect(reader.line == 5)
        #expect(try reader.next() == nil)
    }

    @Test func skipsAByteOrderMark() throws {
        var reader = try CSVTraceReader(path: TestFiles.write("\u{FEFF}\(TestFiles.header)\r\n0,1,2,3,4,5,6\r\n"))
        #expect(reader.columns.first == "t")
        #expect(try reader.next()?.time == 0)
    }

    @Test func headerOnlyIsAnEmptyTrace() throws {
        var reader = try CSVTraceReader(path: TestFiles.write("# x=1\n\(TestFiles.header)\n"))
        #expect(try reader.next() == nil)
    }

    @Test func numberSyntax() throws {
        let path = TestFiles.write("\(TestFiles.header)\n1e-3,+1.5,-.5,5.,1E2,-0,0.000000000000000000000000000000000000000000001\n")
        var reader = try CSVTraceReader(path: path)
        let sample = try #require(try reader.next())
        #expect(sample.time == 0.001)
        #expect(sample.accelerometer == [1.5, -0.5, 5])
        #expect(sample.gyroscope.x == 100)
        #expect(sample.gyroscope.y.sign == .minus && sample.gyroscope.y == 0)
        #expect(sample.gyroscope.z == Float.leastNonzeroMagnitude)
    }

    @Test func longFileStreamsAcrossBufferRefills() throws {
        var text = "\(TestFiles.header)\n"
        for i in 0..<20_000 { text += "\(Double(i) * 0.01),\(i),1,2,3,4,5\n" }
        let path = TestFiles.write(text)
        var reader = try CSVTraceReader(path: path)
        var count = 0
        while let sample = try reader.next() {
            #expect(sample.accelerometer.x == Float(count))
            count += 1
        }
        #expect(count == 20_000)
    }

    @Test func anyLineLengthUpToTheLimitAndAClearErrorBeyond() throws {
        let extra = String(repeating: "x", count: 70_000)
        let message = TestFiles.error(reading: "\(TestFiles.header),note\n0,1,2,3,4,5,6,\(extra)\n")
        #expect(message == "F:2:1: line longer than 65536 bytes (not a trace, or a broken line break)")
    }
}

/// The hand-written parser agrees with the standard library's correctly rounded one.
@Suite struct DecimalParsingTests {
    static func randomDecimal(_ generator: inout SeededRandom) -> String {
        let digits = "0123456789"
        func run(_ count: Int) -> String { String((0..<count).map { _ in digits.randomElement(using: &generator)! }) }
        var text = Bool.random(using: &generator) ? "-" : ""
        text += run(Int.random(in: 0...12, using: &generator))
        if Bool.random(using: &generator) || text.isEmpty || text == "-" {
            text += "." + run(Int.random(in: 1...25, using: &generator))
        }
        if Int.random(in: 0..<4, using: &generator) == 0 {
            text += "e" + String(Int.random(in: -50...40, using: &generator))
        }
        return text
    }

    @Test func agreesWithStandardLibrary() throws {
        var generator = SeededRandom(seed: 0x6465_6369_6D61_6C)
        var lines = "t,ax,ay,az,gx,gy,gz\n"
        var expected: [(String, Float, String, Double)] = []
        for row in 0..<3000 {
            let text = Self.randomDecimal(&generator)
            guard let float = Float(text), float.isFinite, let double = Double(text), double.isFinite else { continue }
            // Time must increase: put the Double under test in `az` as text and check via doubleValue.
            lines += "\(row),\(text),0,\(text),0,0,0\n"
            expected.append((text, float, text, double))
        }
        #expect(expected.count >= 2000, "only \(expected.count) of 3000 random decimals are finite")
        var reader = try CSVTraceReader(path: TestFiles.write(lines))
        for (text, float, _, double) in expected {
            let sample = try #require(try reader.next())
            #expect(sample.accelerometer.x.bitPattern == float.bitPattern, "\(text)")
            #expect(try reader.doubleValue(ofColumn: 3).bitPattern == double.bitPattern, "\(text)")
        }
    }

    @Test func halfwayCasesBetweenFloats() throws {
        // 1 + 2⁻²⁴ is exactly halfway between 1 and the next Float: ties to even (1); a hair
        // above must round up.
        let path = TestFiles.write("t,ax,ay,az,gx,gy,gz\n0,1.000000059604644775390625,1.000000059604644775390626,16777217,0,0,0\n")
        var reader = try CSVTraceReader(path: path)
        let sample = try #require(try reader.next())
        #expect(sample.accelerometer.x == 1)
        #expect(sample.accelerometer.y == 1 + Float.ulpOfOne)
        #expect(sample.accelerometer.z == 16_777_216)
    }
}
