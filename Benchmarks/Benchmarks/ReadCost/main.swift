// Instruction counts for "update, then read the attitude" per 9D sample, under callgrind.
//
//   ReadCost TRACE              runs every measured loop once over the trace's samples
//   ReadCost TRACE --time N     times "update, then read" per sample, best of N passes each
//                               (wall clock, for side-by-side runs against another program
//                               on the same trace; not a callgrind count)
//
// `scripts/bench-read` runs this under `valgrind --tool=callgrind` and counts only the
// instructions inside each `measure…` function (`--toggle-collect`), divided by the number of
// samples. Each loop is its own never-inlined function with a plain symbol name for callgrind;
// the filters and the read are specialised and inlined exactly as in the live tick.
#if hasFeature(Embedded) && canImport(PoiseLibc)
import PoiseLibc  // scripts/bench-embedded: the C library without Glibc's overlay
#elseif hasFeature(Embedded)
import CPoiseLibc
#elseif canImport(Glibc)
import Glibc
#endif
import PoiseFusion
import PoiseMath
import PoiseTraces

struct Recording {
    var samples: [InertialSample] = []
    var steps: [Float] = []
}

func load(_ path: String) throws(TraceError) -> Recording {
    var reader = try TraceReader(path: path)
    var recording = Recording()
    var previous: Double?
    while let row = try reader.next() {
        recording.samples.append(InertialSample(accelerometer: row.accelerometer, gyroscope: row.gyroscope,
                                                magnetometer: row.magnetometer))
        recording.steps.append(previous.map { Float(row.time - $0) } ?? 0.01)
        previous = row.time
    }
    return recording
}

/// Keeps a value alive without letting the optimiser see through it.
@inline(never) func consume(_ q: Quaternion) { if q.w.isNaN { print("nan") } }

/// Updates a fresh filter with every sample; with `read`, reads the attitude after each.
/// Inlined into each named loop below, so each is specialised for its filter.
@inline(__always)
func measure<Filter: AttitudeFilter>(_ filter: Filter, _ r: Recording, read: Bool) -> Quaternion {
    var filter = filter
    var sum = SIMD4<Float>.zero
    r.samples.withUnsafeBufferPointer { samples in
        r.steps.withUnsafeBufferPointer { steps in
            for i in 0..<samples.count {
                filter.update(samples[i], dt: steps[i])
                if read { sum += filter.attitude.components }
            }
        }
    }
    return read ? Quaternion(components: sum) : filter.attitude
}

@inline(never) @_silgen_name("readcost_poise_update")
func measurePoiseUpdate(_ r: Recording) -> Quaternion { measure(PoiseFilter(settings: .default), r, read: false) }

@inline(never) @_silgen_name("readcost_poise_update_read")
func measurePoiseUpdateRead(_ r: Recording) -> Quaternion { measure(PoiseFilter(settings: .default), r, read: true) }

@inline(never) @_silgen_name("readcost_madgwick_update")
func measureMadgwickUpdate(_ r: Recording) -> Quaternion { measure(MadgwickFilter(settings: .default), r, read: false) }

@inline(never) @_silgen_name("readcost_madgwick_update_read")
func measureMadgwickUpdateRead(_ r: Recording) -> Quaternion { measure(MadgwickFilter(settings: .default), r, read: true) }

/// Seconds on the monotonic clock.
func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}

/// The best time per sample, ns, of `passes` runs of `loop` over `r`.
func bestTime(_ passes: Int, _ r: Recording, _ loop: (Recording) -> Quaternion) -> Double {
    var best = Double.infinity
    for _ in 0..<passes {
        let start = now()
        consume(loop(r))
        best = min(best, (now() - start) * 1e9 / Double(r.samples.count))
    }
    return best
}

/// Runs the loops the arguments (the program's name first) ask for; returns the exit status.
func run(_ arguments: [String]) throws(TraceError) -> Int32 {
    let passes = arguments.count == 4 && arguments[2] == "--time" ? Int(arguments[3]) : nil
    guard arguments.count == 2 || passes != nil else {
        print("usage: ReadCost TRACE [--time PASSES]   (run under callgrind by scripts/bench-read)")
        return 2
    }
    let recording = try load(arguments[1])
    if let passes {
        let madgwick = bestTime(passes, recording, measureMadgwickUpdateRead)
        let poise = bestTime(passes, recording, measurePoiseUpdateRead)
        print("samples \(recording.samples.count)")
        print("madgwick update+read ns/sample \(madgwick)")
        print("poise update+read ns/sample \(poise)")
        return 0
    }
    consume(measurePoiseUpdate(recording))
    consume(measurePoiseUpdateRead(recording))
    consume(measureMadgwickUpdate(recording))
    consume(measureMadgwickUpdateRead(recording))
    print("samples \(recording.samples.count)")
    return 0
}

#if hasFeature(Embedded)
/// The C entry point (scripts/bench-embedded compiles this file with -parse-as-library):
/// Embedded Swift has no `CommandLine`.
@_cdecl("main")
public func embeddedMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var arguments: [String] = []
    for index in 0..<Int(argc) {
        if let argument = argv[index] { arguments.append(String(cString: argument)) }
    }
    do { return try run(arguments) } catch { print("ReadCost: \(error)"); return 1 }
}
#else
exit(try run(CommandLine.arguments))
#endif
