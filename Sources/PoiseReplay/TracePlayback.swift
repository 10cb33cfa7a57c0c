import PoiseConfig
import PoiseControl
import PoiseFlightSettings
import PoiseFusion
import PoiseMath
import PoiseSettings
import PoiseFlightCore
import PoiseTraces

/// Runs a trace through a filter and hands out one ``TickRecord`` per sample, as the live
/// loop would: what `poise play` sends as telemetry and what `poise view TRACE` shows.
///
/// The readings are calibrated as the configuration says, the same way replay and eval do it
/// (``TraceFeed/calibration(for:)``). Sensor time starts at 0 at the first sample. Nothing here reads a clock, so the records
/// depend only on the trace and the settings; callers pace them or fill in loop timings.
public struct TracePlayback: FilterKindWork, ~Copyable {
    public var reader: TraceReader
    public var frame: OutputFrame
    public var declinationDegrees: Float
    /// The samples' way into the filter: the configuration's calibration, the magnetometer
    /// fused or not, the first time step.
    public var feed: TraceFeed
    public var useMagnetometer: Bool {
        get { feed.useMagnetometer }
        set { feed.useMagnetometer = newValue }
    }
    /// Receives each record; return false to stop early.
    public var body: (TickRecord) throws -> Bool

    /// Plays `reader` with `configuration`'s calibration, output frame and declination.
    public init(reader: consuming TraceReader, configuration: PoiseConfiguration,
                body: @escaping (TickRecord) throws -> Bool) {
        self.reader = reader
        self.body = body
        frame = OutputFrame(configuration: configuration.frame)
        declinationDegrees = Float(configuration.frame.declinationDegrees)
        feed = TraceFeed(configuration: configuration)
    }

    /// Records handed out.
    public mutating func run<Filter: AttitudeFilter>(_ filter: inout Filter) throws -> Int {
        var transform = OutputFrameTransform(frame, declinationDegrees: declinationDegrees)
        var record = TickRecord()
        var count = 0
        // A recording of `poise run` also has the arm state and the outputs the loop wrote:
        // hand them on, so what is sent (and shown) is what the board did.
        let armColumn = reader.columns.firstIndex(of: "arm")
        let outputColumns = Array(reader.columns.indices.filter { reader.columns[$0].hasPrefix("out_") }.prefix(16))
        record.outputs = ChannelCommands(count: outputColumns.count)
        var firstTime: Double? = nil
        _ = try feed.run(&filter, reader: &reader) { sample, input, filter, reader in
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
            if let armColumn, let arm = Self.whole(try reader.doubleValue(ofColumn: armColumn), atMost: 255) {
                record.armState = ArmState(rawValue: UInt8(arm)) ?? .disarmed
            }
            for (channel, column) in outputColumns.enumerated() {
                // Recorded as µs of high time (pulses) or the level; the record holds ns, which
                // the telemetry turns back into µs or, for a level channel, 0/1.
                if let value = Self.whole(try reader.doubleValue(ofColumn: column) * 1000, atMost: Double(UInt32.max)) {
                    record.outputs[channel] = UInt32(value)
                }
            }
            count += 1
            return try body(record)
        }
        return count
    }

    /// `value` rounded, when it is a number from 0 to `limit` (an empty cell reads NaN).
    static func whole(_ value: Double, atMost limit: Double) -> Double? {
        value.isFinite && value >= 0 && value <= limit ? value.rounded() : nil
    }
}
