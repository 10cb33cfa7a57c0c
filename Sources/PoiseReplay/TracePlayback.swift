import PoiseFusion
import PoiseMath
import PoiseSettings
import PoiseTick
import PoiseTraces

/// Runs a trace through a filter and hands out one ``TickRecord`` per sample, as the live
/// loop would: what `poise play` sends as telemetry and what `poise view TRACE` shows.
///
/// Sensor time starts at 0 at the first sample. Nothing here reads a clock, so the records
/// depend only on the trace and the settings; callers pace them or fill in loop timings.
public struct TracePlayback: FilterWork, ~Copyable {
    public var reader: TraceReader
    public var frame: OutputFrame = .axes(.enu)
    public var declinationDegrees: Float = 0
    public var useMagnetometer = true
    /// Time step of the first sample when the trace gives no `rate_hz`, s.
    public var fallbackStep = 0.01
    /// Receives each record; return false to stop early.
    public var body: (TickRecord) throws -> Bool

    public init(reader: consuming TraceReader, body: @escaping (TickRecord) throws -> Bool) {
        self.reader = reader
        self.body = body
    }

    /// Records handed out.
    public mutating func run<Filter: AttitudeFilter>(_ filter: inout Filter) throws -> Int {
        var transform = OutputFrameTransform(frame, declinationDegrees: declinationDegrees)
        var record = TickRecord()
        var count = 0
        var firstTime: Double? = nil
        let feed = TraceFeed(useMagnetometer: useMagnetometer, fallbackStep: fallbackStep)
        _ = try feed.run(&filter, reader: &reader) { sample, input, filter in
            let origin = firstTime ?? sample.time
            firstTime = origin
            record.tick = UInt64(count)
            record.time = sample.time - origin
            record.sampleValid = true
            record.accelerometer = sample.accelerometer
            record.gyroscope = sample.gyroscope
            record.magnetometer = input.magnetometer ?? SIMD3(repeating: .nan)
            record.attitude = transform.attitude(fromENU: filter.attitude)
            record.filterFlags = filter.status.flags
            count += 1
            return try body(record)
        }
        return count
    }
}
