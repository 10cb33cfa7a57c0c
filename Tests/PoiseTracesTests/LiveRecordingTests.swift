#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PoiseTraces
import Testing

/// A live recording (`OutputMode.live`) is under its own name from the start, every flush
/// ends on a whole record, and a file cut at any byte reads to its last whole record.
/// In the cut-off suite, which is serialized: `TraceWarnings.strict` is process-wide.
extension CutOffTraceTests {
    static let columns = ["t", "ax", "ay", "az", "gx", "gy", "gz", "tick_t", "sample"]

    /// A recording as `poise run --record` writes one: `# source=poise-run-sim`, `rows` rows.
    static func record(_ path: String, rows: Int, format: TraceFormat) throws -> [UInt8] {
        var metadata = TraceMetadata()
        metadata.set("source", "poise-run-sim")
        var writer = try TraceWriter(path: path, format: format, metadata: metadata, columns: columns,
                                     mode: .live(overwrite: false))
        for row in 0..<rows {
            let t = Double(row) * 0.001 + 0.000123456789
            writer.append(t)
            for axis in 0..<6 { writer.append(Float(axis) + 0.123456 * Float(row)) }
            writer.append(t)
            writer.append(1.0)
            writer.endRow()
        }
        try writer.close()
        return TestFiles.read(path)
    }

    /// Bytes before the first record.
    static func headerSize(_ bytes: [UInt8], format: TraceFormat) -> Int {
        if format == .binary { return (24..<28).reduce(0) { $0 | Int(bytes[$1]) << (8 * ($1 - 24)) } }
        let header = Array("t,ax".utf8)
        var index = 0
        while !(bytes[index...].starts(with: header) && (index == 0 || bytes[index - 1] == 0x0A)) { index += 1 }
        return bytes[index...].firstIndex(of: 0x0A)! + 1
    }

    @Test(arguments: [TraceFormat.csv, .binary])
    func aRecordingCutAtAnyByteReadsToItsLastWholeRecord(format: TraceFormat) throws {
        let directory = TestFiles.directory()
        let rows = 6
        let whole = try Self.record(directory + "/whole", rows: rows, format: format)
        let start = Self.headerSize(whole, format: format)
        // Where each record ends.
        var ends: [Int] = []
        if format == .binary {
            let size = (whole.count - start) / rows
            ends = (1...rows).map { start + $0 * size }
        } else {
            ends = whole.indices.filter { $0 >= start && whole[$0] == 0x0A }.map { $0 + 1 }
        }
        #expect(ends.count == rows && ends.last == whole.count)
        for cut in start...whole.count {
            let path = directory + "/cut\(cut)"
            defer { unlink(path) }
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            whole.withUnsafeBytes { _ = write(fd, $0.baseAddress, cut) }
            close(fd)
            let expected = ends.filter { $0 <= cut }.count
            switch TestFiles.samples(path) {
            case .success(let samples): #expect(samples.count == expected, "cut at byte \(cut) of \(whole.count)")
            case .failure(let error): Issue.record("cut at byte \(cut): \(error)")
            }
            let warnings = TraceWarnings.pending.filter { $0.hasPrefix(path + ":") }
            // A cut between records is an ordinary end; inside one, one warning.
            #expect(warnings.count == (ends.contains(cut) || cut == start ? 0 : 1), "cut at byte \(cut): \(warnings)")
        }
    }

    /// The file on disk ends on a whole record after every flush, automatic (a full buffer)
    /// or asked for in the middle of a row.
    @Test(arguments: [TraceFormat.csv, .binary])
    func everyFlushEndsOnAWholeRecord(format: TraceFormat) throws {
        let path = TestFiles.directory() + "/live"
        var metadata = TraceMetadata()
        metadata.set("source", "poise-run-sim")
        var writer = try TraceWriter(path: path, format: format, metadata: metadata, columns: Self.columns,
                                     mode: .live(overwrite: false))
        var sizes: Set<Int> = []
        func checkOnDisk() {
            var info = stat()
            guard stat(path, &info) == 0, Int(info.st_size) > 0, sizes.insert(Int(info.st_size)).inserted else { return }
            let bytes = TestFiles.read(path)
            let start = Self.headerSize(bytes, format: format)
            if format == .csv {
                #expect(bytes.last == 0x0A, "a flush ended inside a row at byte \(bytes.count)")
            } else {
                #expect((bytes.count - start) % (8 + 6 * 4 + 8 + 8) == 0, "a flush ended inside a record at byte \(bytes.count)")
            }
        }
        for row in 0..<6000 {
            writer.append(Double(row) * 0.001)
            for axis in 0..<6 {
                writer.append(Float(axis) * 1.000001 + Float(row))
                checkOnDisk()
                if row % 997 == 0 && axis == 3 { writer.flush(); checkOnDisk() }
            }
            writer.append(Double(row) * 0.001)
            writer.append(1.0)
            writer.endRow()
        }
        try writer.close()
        checkOnDisk()
        #expect(sizes.count > 4)   // several automatic flushes and the asked-for ones happened
        #expect(try TestFiles.samples(path).get().count == 6000)
    }

    /// A recording never replaces a file unless asked to.
    @Test func anExistingFileIsRefusedUnlessOverwriteIsGiven() throws {
        let path = TestFiles.write("precious\n", name: "run.csv")
        do {
            _ = try TraceWriter(path: path, format: .csv, metadata: TraceMetadata(), columns: Self.columns,
                                mode: .live(overwrite: false))
            Issue.record("an existing file was opened for a recording")
        } catch {
            #expect(error.description == "\(path): exists; a recording never replaces a file unless asked: pass --overwrite, or choose another name")
        }
        #expect(TestFiles.read(path) == Array("precious\n".utf8))
        _ = try Self.record(path + ".new", rows: 1, format: .csv)
        var writer = try TraceWriter(path: path, format: .csv, metadata: TraceMetadata(), columns: Self.columns,
                                     mode: .live(overwrite: true))
        try writer.close()
        #expect(TestFiles.read(path) == Array((Self.columns.joined(separator: ",") + "\n").utf8))
    }
}
