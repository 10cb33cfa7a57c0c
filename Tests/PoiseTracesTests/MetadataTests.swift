import PoiseTraces
import Testing

@Suite struct MetadataTests {
    static let lines = [
        "# source=BROAD trial=01 rate_hz=285.7",
        "# movement=9656:45663",
        "# units: t s, a m/s^2",
        "#no-space=ok",
    ]

    @Test func parsesPairsAndKeepsFreeComments() {
        let metadata = TraceMetadata(lines: Self.lines)
        #expect(metadata["source"] == "BROAD")
        #expect(metadata["trial"] == "01")
        #expect(metadata["rate_hz"] == "285.7")
        #expect(metadata["movement"] == "9656:45663")
        #expect(metadata["no-space"] == "ok")
        #expect(metadata["units:"] == nil)
        #expect(metadata.pairs.count == 5)
    }

    @Test func setRewritesOnlyTheAffectedPair() {
        var metadata = TraceMetadata(lines: Self.lines)
        metadata.set("trial", "02")
        metadata.set("filter", "vqf")
        #expect(metadata.lines == [
            "# source=BROAD trial=02 rate_hz=285.7",
            "# movement=9656:45663",
            "# units: t s, a m/s^2",
            "#no-space=ok",
            "# filter=vqf",
        ])
        #expect(metadata["trial"] == "02")
    }

    @Test func laterDefinitionsWin() {
        var metadata = TraceMetadata(lines: ["# a=1", "# a=2 b=3"])
        #expect(metadata["a"] == "2")
        metadata.set("a", "4")
        #expect(metadata.lines == ["# a=1", "# a=4 b=3"])
    }

    @Test func preservedVerbatimThroughBothFormats() throws {
        var metadata = TraceMetadata(lines: Self.lines)
        metadata.append(comment: "written by a test")
        for name in ["m.csv", "m.ptrace"] {
            let path = TestFiles.directory() + "/" + name
            if name.hasSuffix("csv") {
                var writer = try CSVTraceWriter(path: path, metadata: metadata, columns: TraceColumns.standard())
                try writer.close()
            } else {
                var writer = try BinaryTraceWriter(path: path, metadata: metadata, columns: TraceColumns.standard())
                try writer.close()
            }
            let reader = try TraceReader(path: path)
            #expect(reader.metadata.lines == metadata.lines)
        }
    }
}
