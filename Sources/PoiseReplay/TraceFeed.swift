import PoiseConfig
import PoiseFusion
import PoiseMath
import PoiseReplayCore
import PoiseSensors
import PoiseSettings
import PoiseTraces

/// The one trace pipeline: every sample of a trace, in order, calibrated as the configuration
/// says, turned into the filter's input with its time step, and given to the filter. Replay,
/// evaluation and playback (`poise play`, `replay --realtime`, the viewer) all feed their
/// filter through it, and the tick replay takes its calibration from ``calibration(for:)``,
/// so a trace gives the same estimates whichever of them reads it.
///
/// Calibration: the configuration's `sensor.calibration` is applied to every reading of a
/// raw trace, and to none of a trace that says it is already calibrated (`# calibrated=yes`,
/// as every `poise run` recording does), so a correction is never applied twice.
///
/// The time step of the first sample is the trace's `rate_hz` period (or `fallbackStep`);
/// every later one is the difference of the sample times, as the live loop's is.
public struct TraceFeed: Sendable {
    /// The configuration's `sensor.calibration` (body frame); ``calibration(for:)`` says when
    /// it applies. `.identity`: none.
    public var sensorCalibration: SensorCalibration
    /// Give the filter the magnetometer when the trace has one (false: 6D).
    public var useMagnetometer: Bool
    /// Time step of the first sample when the trace gives no `rate_hz`, s.
    public var fallbackStep: Double

    /// The feed of `configuration`: its `sensor.calibration`, turned through `board.mounting`
    /// as the live driver applies it.
    public init(configuration: PoiseConfiguration, useMagnetometer: Bool = true, fallbackStep: Double = 0.01) {
        self.init(sensorCalibration: SensorCalibration(configuration: configuration), useMagnetometer: useMagnetometer,
                  fallbackStep: fallbackStep)
    }

    public init(sensorCalibration: SensorCalibration = .identity, useMagnetometer: Bool = true, fallbackStep: Double = 0.01) {
        self.sensorCalibration = sensorCalibration
        self.useMagnetometer = useMagnetometer
        self.fallbackStep = fallbackStep
    }

    /// What is applied to each reading of a trace with `metadata` — the one place every path
    /// that runs a filter over a trace decides it: the configured calibration, unless the
    /// trace says it is calibrated already. Nil when there is nothing to apply (identity, or
    /// calibrated).
    public func calibration(for metadata: TraceMetadata) -> SensorCalibration? {
        ReplayCalibration.applied(sensorCalibration, to: metadata)
    }

    /// What the feed has read.
    public struct Summary: Sendable {
        /// Samples given to the filter.
        public var samples = 0
        /// Time of the first and the last sample, s.
        public var firstTime = 0.0
        public var lastTime = 0.0
    }

    /// Updates `filter` with every sample of `reader`; after each update `body` sees the
    /// (calibrated) sample, the filter's input, the filter and the reader (for the row's other
    /// columns), and returns false to stop.
    public func run<Filter: AttitudeFilter>(
        _ filter: inout Filter, reader: inout TraceReader,
        body: (TraceSample, InertialSample, borrowing Filter, borrowing TraceReader) throws -> Bool
    ) throws -> Summary {
        // PoiseReplayCore's step, the board binary's too.
        var feed = SampleFeed(metadata: reader.metadata, calibration: calibration(for: reader.metadata),
                              useMagnetometer: useMagnetometer, fallbackStep: fallbackStep)
        while let step = try feed.next(&filter, reader: &reader) {
            guard try body(step.sample, step.input, filter, reader) else { break }
        }
        return Summary(samples: feed.samples, firstTime: feed.firstTime, lastTime: feed.lastTime)
    }
}
