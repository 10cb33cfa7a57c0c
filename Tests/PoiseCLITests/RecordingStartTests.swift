import Foundation
import Testing

/// A recording starts at the first tick with a sample, not with the loop's start-up ticks
/// (about 0.1 s of rows with no sample and every sensor cell 0), and still replays through
/// the tick to exactly what the run recorded.
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote)) struct RecordingStartTests {
    /// The header and the data rows of a CSV recording.
    static func table(_ path: String) throws -> (header: [Substring], rows: [Substring]) {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        return (lines.first.map { $0.split(separator: ",") } ?? [], Array(lines.dropFirst()))
    }

    static func cell(_ row: Substring, _ column: Int) -> Double {
        Double(row.split(separator: ",", omittingEmptySubsequences: false)[column]) ?? .nan
    }

    /// `path` as CSV: itself, or `poise convert`'s copy of a binary recording.
    static func csv(_ path: String, in dir: URL) throws -> String {
        guard path.hasSuffix(".ptrace") else { return path }
        let copy = dir.appending(path: URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent + ".csv").path
        let convert = try poise(["convert", path, copy])
        #expect(convert.status == 0, "\(convert.error)")
        return copy
    }

    /// The recording's first row has a sample and the accelerometer's reading in it; replayed
    /// through the tick (into the same format), every row comes back byte for byte (estimate,
    /// arming, event, outputs).
    static func expectStartsAtTheFirstSampleAndReplaysAsRecorded(_ recording: String, in dir: URL) throws {
        let (header, rows) = try table(try csv(recording, in: dir))
        let sample = try #require(header.firstIndex(of: "sample")), az = try #require(header.firstIndex(of: "az"))
        let state = try #require(header.firstIndex(of: "sensor_state"))
        let first = try #require(rows.first, "an empty recording")
        #expect(cell(first, sample) == 1, "the first row has no sample: \(first)")
        #expect(abs(cell(first, az)) > 5, "the first row holds gravity: \(first)")
        #expect(!rows.contains { cell($0, state) == 0 }, "no row of the driver's start-up")
        let replayed = dir.appending(path: "replayed." + (recording.hasSuffix(".ptrace") ? "ptrace" : "csv")).path
        let replay = try poise(["replay", recording, "--output", replayed, "--quiet"])
        #expect(replay.status == 0, "\(replay.error)")
        let again = try table(try csv(replayed, in: dir))
        #expect(again.header == header)
        #expect(again.rows.count == rows.count)
        let differing = zip(rows, again.rows).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(differing == nil, "row \(differing?.offset ?? 0) replays differently:\n\(differing?.element.0 ?? "")\n\(differing?.element.1 ?? "")")
    }

    @Test func aSimulatedRecordingStartsAtTheFirstSample() throws {
        let dir = try temporaryDirectory()
        let recording = dir.appending(path: "simulated.csv").path
        let run = try poise(["simulate", "--duration", "3", "--record", recording, "--quiet"])
        #expect(run.status == 0, "\(run.error)")
        try Self.expectStartsAtTheFirstSampleAndReplaysAsRecorded(recording, in: dir)
    }

    @Test func aLiveRecordingStartsAtTheFirstSample() throws {
        let dir = try temporaryDirectory()
        let recording = dir.appending(path: "live.csv").path
        let run = try poise(["run", "--duration", "1", "--record", recording, "--quiet"])
        #expect(run.status == 0, "\(run.error)")
        try Self.expectStartsAtTheFirstSampleAndReplaysAsRecorded(recording, in: dir)
    }

    @Test func aSensorRecordingStartsAtTheFirstSample() throws {
        let dir = try temporaryDirectory()
        let recording = dir.appending(path: "sensor.ptrace").path
        let run = try poise(["record", recording, "--duration", "1", "--quiet"])
        #expect(run.status == 0, "\(run.error)")
        try Self.expectStartsAtTheFirstSampleAndReplaysAsRecorded(recording, in: dir)
    }
}
