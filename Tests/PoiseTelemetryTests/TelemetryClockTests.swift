import Foundation
import PoiseTelemetry
import Testing

/// What `time_boot_ms` counts from, as docs/telemetry.md says: `poise run` sends each tick's
/// time on the loop's clock (the `t` of its recording, from the loop's start, so the chip's
/// first sample comes some 100 ms in); `poise play` the time since the trace's first sample.
/// Decoded here with Poise's own decoder (the pymavlink peer checks the bytes elsewhere).
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: poisePath), poiseBuiltNote), .serialized)
struct TelemetryClockTests {
    /// Runs `poise ARGS --telemetry 127.0.0.1:PORT` and collects every ATTITUDE_QUATERNION's
    /// time_boot_ms it sends, until it has exited and half a second passes without a datagram.
    func attitudeTimes(_ arguments: [String]) throws -> (status: Int32, times: [UInt32]) {
        let socket = try UDPSocket(listeningOn: 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: poisePath)
        process.arguments = arguments + ["--telemetry", "127.0.0.1:\(socket.localPort)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var times: [UInt32] = []
        var exited = false
        // At most two minutes of silence in all, whatever the program does.
        for _ in 0 ..< 240 {
            if let datagram = socket.receive(timeoutMilliseconds: 500, maximumLength: 65536) {
                for frame in MAVLinkDecoder.decodeAll(datagram).frames {
                    if case .attitudeQuaternion(let q) = frame.packet { times.append(q.timeBootMs) }
                }
                continue
            }
            if exited { break }
            exited = !process.isRunning
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return (process.terminationStatus, times)
    }

    /// The data rows of a CSV recording: the `t` column and the `sample` column (1 when the
    /// tick had a new sample; absent in a plain trace).
    func rows(_ path: String) throws -> [(t: Double, sampled: Bool)] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false) ?? []
        let sample = header.firstIndex(of: "sample")
        return lines.dropFirst().map { line in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            return (Double(cells[0]) ?? .nan, sample.map { cells[$0] == "1.0" || cells[$0] == "1" } ?? true)
        }
    }

    @Test func runCountsFromTheLoopsStartAndPlayFromTheTracesFirstSample() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "poise-telemetry-clock-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let recording = directory.appending(path: "run.csv").path
        let run = try attitudeTimes(["run", "--duration", "1", "--record", recording, "--quiet"])
        #expect(run.status == 0)
        let recorded = try rows(recording)
        // The recording starts at the chip's first sample, which comes after the loop's start at 0.
        let firstSample = try #require(recorded.first { $0.sampled }?.t)
        #expect(recorded.first?.t == firstSample && firstSample > 0.02, "the chip's first sample comes later than the loop's start: \(firstSample) s")
        // Every time sent from then on is a tick's time in the recording, on the same clock from 0.
        let tickMs = Set(recorded.map { UInt32(($0.t * 1000).rounded()) })
        let recordedTimes = run.times.filter { $0 >= UInt32((firstSample * 1000).rounded()) }
        #expect(run.times.count >= 20, "\(run.times.count) attitudes from a 1 s run at 50 Hz")
        #expect(recordedTimes.count >= 15 && recordedTimes.allSatisfy(tickMs.contains),
                "\(recordedTimes.filter { !tickMs.contains($0) }.prefix(5)) are no tick's time")
        #expect(run.times.first.map { $0 < UInt32(firstSample * 1000) } == true,
                "first time_boot_ms \(run.times.first ?? 0), first sample at \(firstSample) s")

        // A trace whose first sample is at 0.5 s plays from time_boot_ms 0.
        let trace = directory.appending(path: "demo.csv").path
        #expect(try poise(["synth", "--motion", "demo", "--output", trace]).status == 0)
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let comments = lines.prefix { $0.hasPrefix("#") }
        let header = lines[comments.count]
        let late = directory.appending(path: "late.csv").path
        let kept = lines[(comments.count + 101)...].prefix(200)
        try (comments + [header] + kept).joined(separator: "\n").appending("\n").write(toFile: late, atomically: true, encoding: .utf8)
        let played = try rows(late)
        let start = try #require(played.first?.t), span = try #require(played.last?.t) - start
        #expect(start >= 0.5)
        let play = try attitudeTimes(["play", late, "--speed", "4"])
        #expect(play.status == 0)
        #expect(play.times.first == 0, "\(play.times.prefix(3))")
        #expect(play.times.last.map { abs(Double($0) / 1000 - span) < 0.03 } == true, "\(play.times.last ?? 0) ms for a trace of \(span) s")
    }
}
