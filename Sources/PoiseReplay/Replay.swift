import PoiseConfig
import PoiseFusion
import PoiseMath
import PoiseReplayCore
import PoiseSettings
import PoiseSensors
import PoiseFlightCore
import PoiseTraces

/// What `poise replay` does besides choosing the filter.
public struct ReplayOptions: Sendable {
    /// Fuse the magnetometer (9D) when the trace has one; false runs 6D.
    public var useMagnetometer: Bool = true
    /// The world frame attitudes are reported in.
    public var frame: OutputFrame = .axes(.enu)
    /// Magnetic declination for `xTrueNorthZVertical`, degrees east.
    public var declinationDegrees: Float = 0
    /// Extra column groups after the base columns.
    public var columns: [ReplayColumn] = []
    /// Time step used for the first sample when the trace gives no `rate_hz`, s.
    public var fallbackStep: Double = 0.01
    /// The configuration's `sensor.calibration`, applied to a raw trace's readings as
    /// ``TraceFeed/calibration(for:)`` decides; `.identity`: none.
    public var sensorCalibration: SensorCalibration = .identity

    public init() {}

    /// The options `configuration` gives: its calibration, output frame and declination.
    public init(configuration: PoiseConfiguration) {
        sensorCalibration = SensorCalibration(configuration: configuration)
        frame = OutputFrame(configuration: configuration.frame)
        declinationDegrees = Float(configuration.frame.declinationDegrees)
    }
}

/// Counts of a finished replay.
public struct ReplaySummary: Sendable {
    public var samples: Int
    public var traceSeconds: Double
    public var wallSeconds: Double
    public var samplesPerSecond: Double { wallSeconds > 0 ? Double(samples) / wallSeconds : 0 }
}

/// Runs a trace through an attitude filter — the same filter code the live loop runs — and
/// writes one output row per input row. Deterministic: the output depends only on the input
/// bytes, the filter and its settings (no clocks, no randomness, no threads).
public struct Replay {
    public static let baseColumns = ReplayRow.baseColumns

    public var options: ReplayOptions
    public init(options: ReplayOptions) { self.options = options }

    /// The trace pipeline these options describe.
    var feed: TraceFeed {
        TraceFeed(sensorCalibration: options.sensorCalibration, useMagnetometer: options.useMagnetometer,
                  fallbackStep: options.fallbackStep)
    }

    /// The output header for these options.
    public var outputColumns: [String] { Self.baseColumns + options.columns.flatMap(\.headers) }

    /// The output's metadata: the input's, plus what produced this estimate.
    public func outputMetadata(input: TraceMetadata, filterName: String) -> TraceMetadata {
        var metadata = input
        metadata.set("estimate", filterName)
        metadata.set("frame", options.frame.name)
        metadata.set("magnetometer", options.useMagnetometer ? "on" : "off")
        if feed.calibration(for: input) != nil { metadata.set(SensorCalibration.traceMetadataKey, "yes") }
        return metadata
    }

    /// Replays every sample of `reader` through `filter` into `writer`.
    /// - Parameter progress: called every 16 384 samples with the count so far (not hot).
    public func run<Filter: AttitudeFilter>(
        _ filter: inout Filter, reader: inout TraceReader, writer: inout CSVTraceWriter,
        progress: (Int) -> Void = { _ in }
    ) throws -> ReplaySummary {
        let start = MonotonicClock.now()
        var rowWriter = RowWriter(options: options)
        var count = 0
        let read = try feed.run(&filter, reader: &reader) { sample, input, filter, _ in
            rowWriter.write(sample: sample, input: input, attitude: filter.attitude, status: filter.status, to: &writer)
            count += 1
            if count & 0x3FFF == 0 { progress(count) }
            return true
        }
        try writer.close()
        return ReplaySummary(samples: read.samples, traceSeconds: read.samples > 0 ? read.lastTime - read.firstTime : 0,
                             wallSeconds: MonotonicClock.now() - start)
    }
}
