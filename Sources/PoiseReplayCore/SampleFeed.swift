import PoiseFusion
import PoiseSensors
import PoiseTraces

/// A trace's samples in order, each calibrated (or not), turned into the filter's input with
/// its time step and given to the filter: the step every filter-only replay takes, on the
/// host (PoiseReplay's `TraceFeed`: replay, evaluation, playback) and on the board.
///
/// The time step of the first sample is the trace's `rate_hz` period (or `fallbackStep`);
/// every later one is the difference of the sample times, as the live loop's is.
public struct SampleFeed: Sendable {
    /// Applied to every reading (nil: none; ``ReplayCalibration/applied(_:to:)`` decides).
    public let calibration: SensorCalibration?
    /// Give the filter the magnetometer when the trace has one (false: 6D).
    public let useMagnetometer: Bool
    let nominalStep: Double
    var previousTime: Double? = nil
    /// Samples given to the filter so far.
    public private(set) var samples = 0
    /// Time of the first and the last sample, s.
    public private(set) var firstTime = 0.0
    public private(set) var lastTime = 0.0

    public init(metadata: TraceMetadata, calibration: SensorCalibration?, useMagnetometer: Bool, fallbackStep: Double) {
        self.calibration = calibration
        self.useMagnetometer = useMagnetometer
        nominalStep = metadata["rate_hz"].flatMap { Double($0) }.map { 1 / $0 } ?? fallbackStep
    }

    /// Reads the next sample of `reader` and updates `filter` with it; nil at the end.
    public mutating func next<Filter: AttitudeFilter>(_ filter: inout Filter, reader: inout TraceReader)
        throws(TraceError) -> (sample: TraceSample, input: InertialSample)? {
        guard var sample = try reader.next() else { return nil }
        if let calibration { sample = ReplayCalibration.corrected(sample, by: calibration) }
        let dt = previousTime.map { sample.time - $0 } ?? nominalStep
        if previousTime == nil { firstTime = sample.time }
        previousTime = sample.time
        lastTime = sample.time
        let input = InertialSample(accelerometer: sample.accelerometer, gyroscope: sample.gyroscope,
                                   magnetometer: useMagnetometer ? sample.magnetometer : nil)
        filter.update(input, dt: Float(dt))
        samples += 1
        return (sample, input)
    }
}

/// Which calibration a trace's readings get, decided in one place for every replay.
public enum ReplayCalibration {
    /// The configured calibration, unless the trace says it is calibrated already
    /// (`# calibrated=yes`, as every `poise run` recording does); nil when there is nothing
    /// to apply (identity, or calibrated).
    public static func applied(_ calibration: SensorCalibration, to metadata: TraceMetadata) -> SensorCalibration? {
        if metadata[traceMetadataKey]?.lowercased() == "yes" { return nil }
        return calibration == .identity ? nil : calibration
    }

    /// The trace metadata key that says whether a trace's sensor columns are raw (`no`) or
    /// corrected already (`yes`).
    public static let traceMetadataKey = "calibrated"

    /// A trace sample with its readings corrected (truth and time untouched).
    @inlinable
    public static func corrected(_ sample: TraceSample, by calibration: SensorCalibration) -> TraceSample {
        var result = sample
        result.accelerometer = calibration.correctAccelerometer(sample.accelerometer)
        result.gyroscope = calibration.correctGyroscope(sample.gyroscope)
        if let m = sample.magnetometer { result.magnetometer = calibration.correctMagnetometer(m) }
        return result
    }
}
