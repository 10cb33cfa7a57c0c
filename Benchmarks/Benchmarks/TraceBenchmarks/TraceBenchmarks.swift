import Benchmark
import PoiseFusion
import PoiseMath
import PoiseMotion
import PoiseReplay
import PoiseFlightSettings
import PoiseSettings
import PoiseTraces

#if canImport(Glibc)
import Glibc
#endif

/// 100 000 samples of the `tumble` motion at 285.714 Hz (about 6 minutes, like a BROAD trial
/// and a half), written once as CSV and as binary into a temporary directory.
let rowCount = 100_000
let traceFiles: (csv: String, binary: String) = {
    let directory = "/tmp/poise-bench-\(getpid())"
    mkdir(directory, 0o755)
    let csv = directory + "/trace.csv", binary = directory + "/trace.ptrace"
    var script = MotionScript.preset(named: "tumble")!
    let base = script.segments
    while script.duration * 285.714 < Double(rowCount) { script.segments += base }
    var generator = try! MotionGenerator(script: script, sampleRate: 285.714)
    var sensor = try! SensorErrorSimulator(model: .default, sampleRate: 285.714)
    var metadata = TraceMetadata()
    metadata.set("rate_hz", "285.714")
    let columns = TraceColumns.standard(magnetometer: true, truth: true)
    var csvWriter = try! CSVTraceWriter(path: csv, metadata: metadata, columns: columns)
    var binaryWriter = try! BinaryTraceWriter(path: binary, metadata: metadata, columns: columns)
    for _ in 0..<rowCount {
        let m = sensor.measure(generator.next()!)
        let sample = TraceSample(time: m.time, accelerometer: m.accelerometer, gyroscope: m.gyroscope,
                                 magnetometer: m.magnetometer, truth: m.truth)
        csvWriter.write(sample)
        binaryWriter.write(sample)
    }
    try! csvWriter.close()
    try! binaryWriter.close()
    return (csv, binary)
}()

/// Replays a whole trace through Madgwick into /dev/null, as `poise replay` does.
struct MadgwickReplay: FilterKindWork, ~Copyable {
    var reader: TraceReader
    var writer: CSVTraceWriter
    mutating func run<Filter: AttitudeFilter>(_ filter: inout Filter) throws -> ReplaySummary {
        try Replay(options: ReplayOptions()).run(&filter, reader: &reader, writer: &writer)
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal], warmupIterations: 1,
                                           maxDuration: .seconds(3), maxIterations: 50)
    let files = traceFiles

    // Whole-file passes: divide the time by 100 000 rows for per-row cost.
    Benchmark("CSV read, 100k rows") { _ in
        var reader = try! TraceReader(path: files.csv)
        var n = 0
        while try! reader.next() != nil { n += 1 }
        precondition(n == rowCount)
    }
    Benchmark("Binary read, 100k rows") { _ in
        var reader = try! TraceReader(path: files.binary)
        var n = 0
        while try! reader.next() != nil { n += 1 }
        precondition(n == rowCount)
    }
    Benchmark("Madgwick update alone, 100k samples (binary trace preloaded)") { benchmark in
        var reader = try! TraceReader(path: files.binary)
        var samples: [InertialSample] = []
        samples.reserveCapacity(rowCount)
        while let s = try! reader.next() {
            samples.append(InertialSample(accelerometer: s.accelerometer, gyroscope: s.gyroscope, magnetometer: s.magnetometer))
        }
        var filter = MadgwickFilter(settings: .default)
        benchmark.startMeasurement()
        for sample in samples { filter.update(sample, dt: 0.0035) }
        benchmark.stopMeasurement()
        blackHole(filter.attitude)
    }
    Benchmark("Binary read + Madgwick update, 100k samples") { _ in
        var reader = try! TraceReader(path: files.binary)
        var filter = MadgwickFilter(settings: .default)
        while let s = try! reader.next() {
            filter.update(InertialSample(accelerometer: s.accelerometer, gyroscope: s.gyroscope, magnetometer: s.magnetometer),
                          dt: 0.0035)
        }
        blackHole(filter.attitude)
    }
    Benchmark("CSV replay with Madgwick to /dev/null (poise replay), 100k rows") { _ in
        var choice = FilterSettings(kind: .madgwick)
        choice.madgwick.startupTime = 0
        var work = MadgwickReplay(reader: try! TraceReader(path: files.csv),
                                  writer: try! CSVTraceWriter(path: "/dev/null", metadata: TraceMetadata(),
                                                              columns: Replay.baseColumns))
        let summary = try! choice.run(&work)
        precondition(summary.samples == rowCount)
    }
}
