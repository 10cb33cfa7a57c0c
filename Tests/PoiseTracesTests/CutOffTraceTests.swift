import PoiseTraces
import Testing

/// Recordings cut off by a power loss are read up to their last whole record or row, with
/// one warning. Serialized: `TraceWarnings.strict` is process-wide.
@Suite(.serialized) struct CutOffTraceTests {
    /// A recording cut off mid-record (power loss) reads up to its last whole record and
    /// leaves one warning with the position; strict reading makes it the error it was.
    @Test func truncatedRecordIsReadUpToTheLastWholeRecordWithAWarning() throws {
        let data = try BinaryTraceTests.bytes(rows: 3)
        let cut = Array(data[0..<(data.count - 12)])
        let headerSize = data.count - 3 * 32
        let path = TestFiles.write(cut, name: "b.ptrace")
        defer { TestFiles.remove(path) }
        #expect(try TestFiles.samples(path).get().count == 2)
        #expect(TraceWarnings.pending.filter { $0.hasPrefix(path) } == ["\(path):3:1: truncated record: 20 of 32 bytes at byte offset \(headerSize + 64); "
                                          + "read up to the last whole record, 20 bytes after it ignored"])
        TraceWarnings.strict = true
        defer { TraceWarnings.strict = false }
        #expect(TestFiles.error(reading: cut, name: "b.ptrace")
                == "F:3:1: truncated record: 20 of 32 bytes at byte offset \(headerSize + 64)")
    }

    /// A text recording cut by a power loss ends in a short line without a line break.
    @Test func aCutOffLastLineIsLeftOutWithAWarning() throws {
        let path = TestFiles.write("t,ax,ay,az,gx,gy,gz\n0,1,2,3,4,5,6\n1,1,2,3")
        defer { TestFiles.remove(path) }
        #expect(try TestFiles.samples(path).get().count == 1)
        #expect(TraceWarnings.pending.filter { $0.hasPrefix(path) } == ["\(path):3:1: last line cut off (4 of 7 fields, no line break); read up to the last whole row"])
        // With its line break it is an ordinary error.
        #expect(TestFiles.error(reading: "t,ax,ay,az,gx,gy,gz\n0,1,2,3,4,5,6\n1,1,2,3\n") == "F:3:8: too few fields: expected 7, found 4")
    }

}
