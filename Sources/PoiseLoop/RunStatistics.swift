/// What one run of the loop measured: tick counts and the two latency histograms. Owned
/// and updated by the real-time thread (fixed size, no allocation); read after the loop or
/// from a copy.
public struct RunStatistics: Sendable {
    public var ticks: UInt64 = 0
    /// Ticks still computing at the next deadline.
    public var overruns = 0
    /// Deadlines skipped by the re-anchoring after overruns.
    public var skippedDeadlines = 0
    /// Ticks whose sensor read failed after the driver's retries.
    public var sensorErrors = 0
    /// Records the recorder/telemetry rings had no room for.
    public var droppedRecords = 0
    /// Output writes that failed.
    public var outputFaults = 0
    /// Ticks that woke later than `safety.stall_ms` (each went failsafe), and the longest, ns.
    public var stalls = 0
    public var longestStallNanoseconds: Int64 = 0
    /// How late each tick woke after its deadline, ns.
    public var lateness = LatencyHistogram()
    /// How long each tick computed (read → filter → control → outputs → record), ns: the
    /// whole tick, from waking to handing over the record.
    public var compute = LatencyHistogram()
    /// The part of each tick spent in the board's I/O — the sensor transfer and the output
    /// writes (on a Pi the I²C transfer alone takes ~0.3 ms at 400 kHz; on the simulated
    /// board, the register-level chip's transfer and the simulated output drivers) — ns.
    public var io = LatencyHistogram()
    /// The rest: the tick's own work (driver decoding, filter, controller, supervisor, output
    /// mapping, the record), ns. The number that does not depend on the bus or the simulator.
    public var work = LatencyHistogram()
    /// Time the simulated board spent between ticks moving its world (plant, actuators, the
    /// chip's conversions) to the next tick, ns; nothing is recorded on a real board, where
    /// that happens in the physical world.
    public var world = LatencyHistogram()
    /// Loop time covered, s: the last tick's time plus one period (ticks × period unless
    /// deadlines were skipped).
    public var seconds = 0.0
    /// From process start (`poise run` entered) to the first tick, s.
    public var startToFirstTick = 0.0
    /// Peak resident set size at the end, bytes (0 when unknown).
    public var peakRSSBytes = 0
    /// Allocations the loop thread made after start-up (from the first tick that read a
    /// sample, i.e. once the driver has configured the chip), when the counting allocator
    /// of `scripts/bench-loop` is preloaded; nil otherwise.
    public var loopThreadAllocations: Int?

    public init() {}

    static func percentiles(_ h: LatencyHistogram) -> String {
        func us(_ q: Double) -> String { microseconds(h.value(atQuantile: q)) }
        return "{\"p50\": \(us(0.5)), \"p99\": \(us(0.99)), \"p999\": \(us(0.999)), \"max\": \(microseconds(h.maximum))}"
    }

    static func microseconds(_ ns: Int64) -> String {
        let value = Double(ns) / 1000
        return String((value * 1000).rounded() / 1000)
    }

    /// The `--stats-json` object.
    public func json(rateHz: Double, seconds: Double) -> String {
        """
        {
          "rate_hz": \(rateHz),
          "seconds": \((seconds * 1000).rounded() / 1000),
          "ticks": \(ticks),
          "overruns": \(overruns),
          "skipped_deadlines": \(skippedDeadlines),
          "sensor_errors": \(sensorErrors),
          "dropped_records": \(droppedRecords),
          "output_faults": \(outputFaults),
          "stalls": \(stalls),
          "longest_stall_ms": \((Double(longestStallNanoseconds) / 1000).rounded() / 1000),
          "lateness_us": \(Self.percentiles(lateness)),
          "compute_us": \(Self.percentiles(compute)),
          "io_us": \(Self.percentiles(io)),
          "work_us": \(Self.percentiles(work)),
          "world_us": \(world.total == 0 ? "null" : Self.percentiles(world)),
          "start_to_first_tick_s": \((startToFirstTick * 1e6).rounded() / 1e6),
          "peak_rss_bytes": \(peakRSSBytes),
          "loop_thread_allocations": \(loopThreadAllocations.map(String.init) ?? "null")
        }

        """
    }

    /// The summary printed at exit.
    public func summary() -> String {
        func line(_ name: String, _ h: LatencyHistogram) -> String {
            "\(name) µs: p50 \(Self.microseconds(h.value(atQuantile: 0.5))), p99 \(Self.microseconds(h.value(atQuantile: 0.99))), p99.9 \(Self.microseconds(h.value(atQuantile: 0.999))), max \(Self.microseconds(h.maximum))"
        }
        return """
        ticks \(ticks), overruns \(overruns), sensor errors \(sensorErrors), dropped records \(droppedRecords), output faults \(outputFaults)\(stalls == 0 ? "" : ", stalls \(stalls) (longest \(Self.microseconds(longestStallNanoseconds / 1000)) ms)")
        \(line("wake-up lateness", lateness))
        \(line("tick compute", compute))
        \(line("  of which board I/O", io))
        \(line("  of which own work", work))\(world.total == 0 ? "" : "\n" + line("simulated world between ticks", world))
        """
    }
}
