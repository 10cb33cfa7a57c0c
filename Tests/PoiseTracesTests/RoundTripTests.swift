import PoiseTraces
import PropertyBased
import Testing
import PoiseMath

/// Values written by either writer read back with identical bits.
@Suite struct RoundTripTests {
    static let specialFloats: [Float] = [
        0, -0.0, 1, -1, 0.1, Float(bitPattern: 1), -Float(bitPattern: 1), Float(bitPattern: 0x007F_FFFF), .leastNormalMagnitude,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 16_777_216, 16_777_218, 3.4e38, 1e-38,
        0.3, 2.0 / 3, 123_456_792, 1e10, 1e-10, 9.99999e-6, 1e-5, 1e16, 1e17, Float(bitPattern: 0x0080_0001),
        .ulpOfOne, 1 + .ulpOfOne, 8388609, 0.5 + .ulpOfOne / 4,
    ]

    static let specialDoubles: [Double] = [
        -1e300, -5, -0.1, -1e-300, -.leastNonzeroMagnitude, 0, Double(bitPattern: 2024), 0.0035, 0.1, 0.30000000000000004,
        1.0 / 3, 1, 2.5, 1e15, 123456789012345680, 1.7976931348623157e308,
    ]

    /// Writes rows of all 14 standard columns plus an extra f64 column in both formats,
    /// reads them back and compares bits.
    static func roundTrip(floats: [Float], times: [Double], extras: [Double]) throws {
        let rows = min(floats.count / 13, times.count, extras.count)
        let columns = TraceColumns.standard() + ["extra"]
        var metadata = TraceMetadata()
        metadata.set("source", "test")
        for (name, binary) in [("t.csv", false), ("t.ptrace", true)] {
            let path = TestFiles.directory() + "/" + name
            func fill<W: ~Copyable>(_ writer: inout W, _ append: (inout W, Float) -> Void, _ appendDouble: (inout W, Double) -> Void, _ end: (inout W) -> Void) {
                for row in 0..<rows {
                    appendDouble(&writer, times[row])
                    for k in 0..<13 { append(&writer, floats[row * 13 + k]) }
                    appendDouble(&writer, extras[row])
                    end(&writer)
                }
            }
            if binary {
                var writer = try BinaryTraceWriter(path: path, metadata: metadata, columns: columns)
                fill(&writer, { $0.append($1) }, { $0.append($1) }, { $0.endRow() })
                try writer.close()
            } else {
                var writer = try CSVTraceWriter(path: path, metadata: metadata, columns: columns)
                fill(&writer, { $0.append($1) }, { $0.append($1) }, { $0.endRow() })
                try writer.close()
            }
            var reader = try TraceReader(path: path)
            #expect(reader.isBinary == binary)
            #expect(reader.metadata == metadata)
            #expect(reader.columns == columns)
            for row in 0..<rows {
                let sample = try #require(try reader.next())
                #expect(sample.time.bitPattern == times[row].bitPattern, "row \(row) time \(times[row])")
                let got = [sample.accelerometer.x, sample.accelerometer.y, sample.accelerometer.z,
                           sample.gyroscope.x, sample.gyroscope.y, sample.gyroscope.z,
                           sample.magnetometer!.x, sample.magnetometer!.y, sample.magnetometer!.z,
                           sample.truth!.w, sample.truth!.x, sample.truth!.y, sample.truth!.z]
                for k in 0..<13 {
                    let expected = floats[row * 13 + k]
                    #expect(got[k].bitPattern == expected.bitPattern, "\(name) row \(row) column \(k): \(got[k]) != \(expected)")
                }
                #expect(try reader.doubleValue(ofColumn: 14).bitPattern == extras[row].bitPattern)
            }
            #expect(try reader.next() == nil)
            TestFiles.remove(path)
        }
    }

    @Test func specialValues() throws {
        var floats = Self.specialFloats
        while floats.count % 13 != 0 { floats.append(floats.count.isMultiple(of: 2) ? 7 : -7) }
        floats += floats.map { -$0 }
        let rows = floats.count / 13
        let times = (0..<rows).map { Double($0) * 0.0035 + 1e-3 }
        let extras = (0..<rows).map { Self.specialDoubles[$0 % Self.specialDoubles.count] }
        try Self.roundTrip(floats: floats, times: times, extras: extras)
        try Self.roundTrip(floats: Array(repeating: 1, count: 13 * Self.specialDoubles.count),
                           times: Self.specialDoubles, extras: Self.specialDoubles)
    }

    @Test func randomBitPatterns() async {
        await propertyCheck(count: 40, input: Gen.uint32().array(of: 13 * 40), Gen.uint64().array(of: 40)) { floatBits, doubleBits in
            let floats = floatBits.map { Float(bitPattern: $0) }.map { $0.isFinite ? $0 : 0.25 }
            let doubles = doubleBits.map { Double(bitPattern: $0) }.filter(\.isFinite)
            let times = Array(Set(doubles.map { $0 == 0 ? 0 : $0 })).sorted()
            do {
                try Self.roundTrip(floats: floats, times: times, extras: doubles.isEmpty ? [] : doubles)
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test func randomSensorRangeValues() async {
        await propertyCheck(count: 40, input: Gen.float(in: -2000...2000).array(of: 13 * 50)) { floats in
            let times = (0..<50).map { Double($0) / 285.714 }
            do {
                try Self.roundTrip(floats: floats, times: times, extras: times)
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test func writeSampleFillsStandardColumnsAndLeavesOthersEmpty() throws {
        let path = TestFiles.directory() + "/s.csv"
        var writer = try CSVTraceWriter(path: path, metadata: TraceMetadata(), columns: ["note", "t", "ax", "ay", "az", "gx", "gy", "gz", "mx", "my", "mz"])
        writer.write(TraceSample(time: 0.5, accelerometer: [1, 2, 3], gyroscope: [0.25, -0.5, 1e-7]))
        writer.write(TraceSample(time: 1, accelerometer: [1, 2, 3], gyroscope: [4, 5, 6], magnetometer: [7, 8, 9]))
        try writer.close()
        #expect(String(decoding: TestFiles.read(path), as: UTF8.self) == """
            note,t,ax,ay,az,gx,gy,gz,mx,my,mz
            ,0.5,1.0,2.0,3.0,0.25,-0.5,1e-7,,,
            ,1.0,1.0,2.0,3.0,4.0,5.0,6.0,7.0,8.0,9.0

            """)
    }
}

@Suite struct WriterColumnTests {
    @Test func writersAcceptAnyUniqueColumns() throws {
        let path = TestFiles.directory() + "/estimates.csv"
        var writer = try CSVTraceWriter(path: path, metadata: TraceMetadata(), columns: ["t", "qw", "qx", "qy", "qz"])
        writer.append(0.5); writer.append(Float(1)); writer.append(Float(0)); writer.appendEmpty(); writer.append(Float(-0.25))
        writer.endRow()
        try writer.close()
        #expect(String(decoding: TestFiles.read(path), as: UTF8.self) == "t,qw,qx,qy,qz\n0.5,1.0,0.0,,-0.25\n")
        #expect(throws: TraceError(file: path, line: 0, column: 0, message: "invalid columns: duplicate column 't'")) {
            _ = try CSVTraceWriter(path: path, metadata: TraceMetadata(), columns: ["t", "t"])
        }
        #expect(!(try TraceColumns(anyNames: ["t", "qw"])).isCompleteTrace)
    }
}
