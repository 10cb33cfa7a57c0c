import Glibc
import PoiseBoard
import PoiseConfig
import PoiseFlightSettings
import PoiseFusion
import PoiseMath
import PoiseReplay
import PoiseSettings
import PoiseTraces
import Testing

/// The board's replay against the host's: the same bytes as `poise replay` with the default
/// configuration, on the host (scripts/check-board compares the aarch64 binary under qemu).
@Suite struct BoardReplayTests {
    /// A 9D trace of `count` samples at 200 Hz, turning about a tilted axis with a little
    /// deterministic noise, with `rate_hz` in its metadata.
    static func trace(count: Int = 3000, extraColumn: String? = nil) throws -> String {
        let path = Scratch.directory() + "/trace.csv"
        var metadata = TraceMetadata()
        metadata.set("rate_hz", "200.0")
        var columns = TraceColumns.standard(magnetometer: true, truth: false)
        if let extraColumn { columns.append(extraColumn) }
        var writer = try CSVTraceWriter(path: path, metadata: metadata, columns: columns)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func noise() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: state >> 11) % 2001 - 1000) * 1e-5
        }
        var attitude = Quaternion.identity
        let rate = SIMD3<Float>(0.4, -0.25, 0.6)
        for index in 0..<count {
            let t = Double(index) / 200
            let gravity = attitude.conjugate.rotate(SIMD3<Float>(0, 0, 9.81))
            let field = attitude.conjugate.rotate(SIMD3<Float>(0, 20, -40))
            writer.append(t)
            for v in [gravity.x, gravity.y, gravity.z, rate.x, rate.y, rate.z, field.x, field.y, field.z] { writer.append(v + noise()) }
            if extraColumn != nil { writer.append(integer: 1) }
            writer.endRow()
            let speed = (rate * rate).sum().squareRoot()
            attitude = (attitude * Quaternion(axis: rate / speed, angle: speed / 200)).normalized
        }
        try writer.close()
        return path
    }

    /// What `poise replay TRACE -o OUT` does with no options: the default configuration's
    /// filter, frame, declination and magnetometer setting, through PoiseReplay.
    static func hostReplay(_ trace: String, to output: String) throws {
        let configuration = PoiseConfiguration.default
        var options = ReplayOptions()
        options.frame = OutputFrame(configuration: configuration.frame)
        options.declinationDegrees = Float(configuration.frame.declinationDegrees)
        options.useMagnetometer = configuration.filter.magnetometer
        let choice = FilterSettings(configuration: configuration)
        let replay = Replay(options: options)
        let reader = try TraceReader(path: trace)
        let writer = try CSVTraceWriter(path: output, metadata: replay.outputMetadata(input: reader.metadata, filterName: choice.kind.rawValue),
                                        columns: replay.outputColumns)
        var work = HostWork(replay: replay, reader: reader, writer: writer)
        _ = try choice.run(&work)
    }

    struct HostWork: FilterKindWork, ~Copyable {
        let replay: Replay
        var reader: TraceReader
        var writer: CSVTraceWriter
        mutating func run<Filter: AttitudeFilter>(_ filter: inout Filter) throws -> ReplaySummary {
            try replay.run(&filter, reader: &reader, writer: &writer)
        }
    }

    @Test func writesWhatPoiseReplayWrites() throws {
        let trace = try Self.trace()
        let directory = Scratch.directory()
        try Self.hostReplay(trace, to: directory + "/host.csv")
        let summary = try BoardReplay.run(trace: trace, output: directory + "/board.csv")
        #expect(summary.samples == 3000)
        #expect(summary.lastTime == 2999.0 / 200)
        let host = Scratch.read(directory + "/host.csv")
        let board = Scratch.read(directory + "/board.csv")
        #expect(host.count > 100_000)
        #expect(board == host)
    }

    @Test func theDefaultsArePoiseReplays() {
        let configuration = PoiseConfiguration.default
        #expect(BoardReplay.columns == Replay.baseColumns)
        #expect(BoardReplay.filter == FilterSettings(configuration: configuration).kind)
        #expect(BoardReplay.frame == OutputFrame(configuration: configuration.frame))
        #expect(configuration.filter.magnetometer)
        #expect(configuration.frame.declinationDegrees == 0)
        #expect(BoardReplay.fallbackStep == ReplayOptions().fallbackStep)
        var input = TraceMetadata()
        input.set("rate_hz", "100.0")
        #expect(BoardReplay.outputMetadata(input: input)
                == Replay(options: ReplayOptions()).outputMetadata(input: input, filterName: BoardReplay.filter.rawValue))
    }

    /// A recording replays through the tick with its compiled configuration (CompileCommandTests
    /// run it); without one it is refused, saying how to make one. A plain trace takes none.
    @Test func aRecordingNeedsItsCompiledConfiguration() throws {
        let trace = try Self.trace(count: 10, extraColumn: "sample")
        #expect(throws: TraceError.self) { try BoardReplay.run(trace: trace, output: Scratch.directory() + "/out.csv") }
        do { _ = try BoardReplay.run(trace: trace, output: "-") } catch {
            #expect(error.message.hasPrefix("a `poise run` recording (it has a `sample` column) replays through the loop's whole tick"))
            #expect(error.message.contains("poise compile"))
        }
        let plain = try Self.trace(count: 10)
        do { _ = try BoardReplay.run(trace: plain, output: "-", config: "robot.pcfg"); Issue.record("a plain trace took --config") } catch {
            #expect(error.message.hasPrefix("--config applies to a `poise run` recording"))
        }
    }

    @Test func aMissingTraceIsAnError() {
        #expect(throws: TraceError(file: "/nonexistent/t.csv", line: 0, column: 0, message: "cannot open: No such file or directory")) {
            try BoardReplay.run(trace: "/nonexistent/t.csv", output: "-")
        }
    }
}

/// Scratch files: one fresh directory per call.
enum Scratch {
    static func directory() -> String {
        let parent = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(parent)/poise-board-XXXXXX".utf8CString)
        let result = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(result != nil, "mkdtemp failed")
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func read(_ path: String) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        precondition(fd >= 0, "cannot open \(path)")
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return bytes
    }
}
