import PoiseTraces
import Testing

@Suite struct BinaryTraceTests {
    /// A small binary trace with `rows` rows of 7 required columns (record size 32 bytes).
    static func bytes(rows: Int, metadata: TraceMetadata = TraceMetadata(), time: (Int) -> Double = { Double($0) },
                      accelerometerX: Float = 1) throws -> [UInt8] {
        let path = TestFiles.directory() + "/b.ptrace"
        var writer = try BinaryTraceWriter(path: path, metadata: metadata, columns: TraceColumns.standard(magnetometer: false, truth: false))
        for row in 0..<rows {
            writer.write(TraceSample(time: time(row), accelerometer: [accelerometerX, 2, 3], gyroscope: [4, 5, 6]))
        }
        try writer.close()
        return TestFiles.read(path)
    }

    static let headerSize = 28 + 7 * 2 + 13  // fixed part, descriptors, names

    @Test func layoutMatchesTheDocumentation() throws {
        var metadata = TraceMetadata()
        metadata.set("a", "1")
        let data = try Self.bytes(rows: 2, metadata: metadata)
        #expect(Array(data[0..<8]) == Array("POISETRC".utf8))
        #expect(data[8] == 1 && data[9] == 0)  // version
        #expect(data[12] == 7)                 // columns
        #expect(data[16] == 6)                 // "# a=1\n"
        #expect(data[20] == 8 + 6 * 4)         // record size
        let headerSize = Int(data[24]) | Int(data[25]) << 8
        #expect(headerSize % 8 == 0)
        #expect(data.count == headerSize + 2 * 32)
        #expect(data[28] == 2 && data[29] == 1 && data[30] == UInt8(ascii: "t"))  // f64 "t"
        #expect(data[31] == 1 && data[32] == 2)  // f32 "ax"
    }

    @Test func truncatedAndCorruptHeaders() throws {
        let data = try Self.bytes(rows: 1)
        #expect(TestFiles.error(reading: Array(data[0..<20]), name: "b.ptrace") == "F:0:1: not a binary trace: shorter than its 28-byte header")
        #expect(TestFiles.error(reading: Array(data[0..<40]), name: "b.ptrace") == "F:0:40: truncated header")
        var version = data
        version[8] = 9
        #expect(TestFiles.error(reading: version, name: "b.ptrace") == "F:0:9: unsupported binary trace version 9 (this reader knows 1)")
        var type = data
        type[28] = 7
        #expect(TestFiles.error(reading: type, name: "b.ptrace") == "F:0:29: unknown column type 7")
        var name = data
        name[30] = UInt8(ascii: "a")  // "t" → "a": time column missing
        #expect(TestFiles.error(reading: name, name: "b.ptrace") == "F:0:56: missing required column 't'")
        var size = data
        size[20] = 31
        #expect(TestFiles.error(reading: size, name: "b.ptrace") == "F:0:21: record size 31 does not match the columns (32)")
    }

    @Test func invalidValuesInRecords() throws {
        let backwards = try Self.bytes(rows: 3, time: { $0 == 2 ? 0.5 : Double($0) })
        #expect(TestFiles.error(reading: backwards, name: "b.ptrace") == "F:3:1: time not increasing: 0.5 after 1.0")
        let missing = try Self.bytes(rows: 1, accelerometerX: .nan)
        #expect(TestFiles.error(reading: missing, name: "b.ptrace") == "F:1:9: missing value in required column 'ax'")
        let infinite = try Self.bytes(rows: 1, accelerometerX: -.infinity)
        #expect(TestFiles.error(reading: infinite, name: "b.ptrace") == "F:1:9: non-finite value -inf in column 'ax'")
    }

    @Test func emptyCellsBecomeNaNAndBackToEmpty() throws {
        let csv = TestFiles.write("t,ax,ay,az,gx,gy,gz,mx,my,mz,extra\n0,1,2,3,4,5,6,,,,\n1,1,2,3,4,5,6,7,8,9,0.5\n")
        var reader = try TraceReader(path: csv)
        let binaryPath = TestFiles.directory() + "/x.ptrace"
        var writer = try BinaryTraceWriter(path: binaryPath, metadata: reader.metadata, columns: reader.columns)
        while let sample = try reader.next() {
            writer.write(sample)
        }
        try writer.close()
        var binary = try TraceReader(path: binaryPath)
        #expect(try binary.next()?.magnetometer == nil)
        #expect(try binary.doubleValue(ofColumn: 10).isNaN)
        #expect(try binary.next()?.magnetometer == [7, 8, 9])
    }

    @Test func csvReaderRejectsBinaryAndBinaryReaderRejectsText() throws {
        let data = try Self.bytes(rows: 1)
        let path = TestFiles.write(data, name: "b.ptrace")
        #expect(throws: TraceError(file: path, line: 1, column: 1, message: "not a text trace: this is a binary trace")) {
            _ = try CSVTraceReader(path: path)
        }
        let text = TestFiles.write("\(TestFiles.header)\n0,1,2,3,4,5,6\n")
        #expect(throws: TraceError(file: text, line: 0, column: 1, message: "not a binary trace: no POISETRC magic")) {
            _ = try BinaryTraceReader(path: text)
        }
    }

    @Test func missingFileIsAClearError() {
        #expect(throws: TraceError(file: "/nonexistent/x.csv", line: 0, column: 0, message: "cannot open: No such file or directory")) {
            _ = try TraceReader(path: "/nonexistent/x.csv")
        }
        #expect(TraceError(file: "/nonexistent/x.csv", line: 0, column: 0, message: "cannot open: No such file or directory").description
                == "/nonexistent/x.csv: cannot open: No such file or directory")
    }
}

@Suite struct BinaryColumnTypeTests {
    @Test func readersAcceptEitherTypeForAnyColumn() throws {
        let path = TestFiles.directory() + "/types.ptrace"
        let columns = TraceColumns.standard(magnetometer: false, truth: false)
        var writer = try BinaryTraceWriter(path: path, metadata: TraceMetadata(), columns: columns,
                                           types: [.float32, .float64, .float64, .float64, .float32, .float32, .float32])
        writer.write(TraceSample(time: 0.25, accelerometer: [0.1, -2, 9.81], gyroscope: [1e-3, 0, -0.5]))
        try writer.close()
        var reader = try TraceReader(path: path)
        let sample = try #require(try reader.next())
        #expect(sample.time == 0.25)
        #expect(sample.accelerometer == [0.1, -2, 9.81])
        #expect(sample.gyroscope == [1e-3, 0, -0.5])
    }
}
