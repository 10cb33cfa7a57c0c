#if canImport(Glibc)
import Glibc
#endif
import PoiseTraces
import Testing

/// The output-file policy (docs/robustness.md) at the library level.
@Suite struct OutputFileTests {
    @Test func aRegularFileIsReplacedOnlyOnCommit() throws {
        let path = TestFiles.write("old\n", name: "out.csv")
        defer { TestFiles.remove(path) }
        var writer = try CSVTraceWriter(path: path, metadata: TraceMetadata(), columns: ["t"])
        writer.append(1.0)
        writer.endRow()
        #expect(TestFiles.read(path) == Array("old\n".utf8))  // still the old file
        try writer.close()
        #expect(TestFiles.read(path) == Array("t\n1.0\n".utf8))
    }

    /// The replacement keeps the file's mode and owner (giving a file to another user needs
    /// root, so the owner half runs as root only).
    @Test func aReplacedFileKeepsItsModeAndOwner() throws {
        let path = TestFiles.write("old\n", name: "owned.yaml")
        defer { TestFiles.remove(path) }
        let other: uid_t = geteuid() == 0 ? 4321 : geteuid()
        let group: gid_t = geteuid() == 0 ? 4322 : getegid()
        #expect(chown(path, other, group) == 0)
        #expect(chmod(path, 0o640) == 0)
        try OutputFile.write("new\n", to: path)
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o7777 == 0o640)
        #expect(info.st_uid == other && info.st_gid == group)
        #expect(TestFiles.read(path) == Array("new\n".utf8))
    }

    @Test func droppingAWriterWithoutCloseLeavesTheOldFileAndNoTemporary() throws {
        let path = TestFiles.write("old\n", name: "out.csv")
        defer { TestFiles.remove(path) }
        do {
            var writer = try CSVTraceWriter(path: path, metadata: TraceMetadata(), columns: ["t"])
            writer.append(1.0)
            writer.endRow()
        }
        #expect(TestFiles.read(path) == Array("old\n".utf8))
        let directory = String(path[..<path.lastIndex(of: "/")!])
        #expect(try directoryEntries(directory) == ["out.csv"])
    }

    @Test func anInputOfThisProcessIsRefusedByIdentity() throws {
        let path = TestFiles.write("t,ax,ay,az,gx,gy,gz\n0,0,0,9.8,0,0,0\n")
        defer { TestFiles.remove(path) }
        let reader = try TraceReader(path: path)
        _ = reader.columns
        let sameFile = String(path[..<path.lastIndex(of: "/")!]) + "/./" + String(path[path.index(after: path.lastIndex(of: "/")!)...])
        #expect(throws: TraceError.self) { _ = try OutputFile(path: sameFile) }
    }

    @Test func devicesAreWrittenInPlace() throws {
        try OutputFile.write("nothing\n", to: "/dev/null")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        #expect(throws: TraceError(file: "/dev/full", line: 0, column: 0, message: "cannot write: No space left on device")) {
            try OutputFile.write("x", to: "/dev/full")
        }
    }

    @Test func standardOutputIsNamedInWords() {
        #expect(OutputFile.displayName("-") == "standard output")
        #expect(OutputFile.displayName("a.csv") == "a.csv")
    }

    @Test func partialGroupsOfADerivedTableAreExtraColumns() throws {
        let layout = try TraceColumns(anyNames: ["t", "qw", "mx", "my"])
        #expect(!layout.hasTruth && !layout.hasMagnetometer)
        #expect((1...3).allSatisfy(layout.isExtra))
        // The same header as a sensor trace is still refused.
        #expect(throws: TraceColumns.Problem.self) { try TraceColumns(names: ["t", "ax", "ay", "az", "gx", "gy", "gz", "qw"]) }
    }

    @Test func aHeaderEndingInStrayCarriageReturnsSaysSo() {
        #expect(TestFiles.error(reading: "t,ax,ay,az,gx,gy,gz\r\r\n0,0,0,9.8,0,0,0\r\r\n")
                == "F:1:18: missing required column 'gz' (it ends in a stray carriage return)")
    }

    @Test func aDerivedTableWithPartialGroupsReadsEveryRow() throws {
        let path = TestFiles.write("t,qw\n0,1\n1,\n")
        defer { TestFiles.remove(path) }
        let table = try ColumnTable(path: path)
        #expect(table.time == [0, 1])
        #expect(table.values["qw"]?.first == 1)
    }

    private func directoryEntries(_ directory: String) throws -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
