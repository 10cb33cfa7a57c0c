import PoiseMath

/// A scripted motion measured by a simulated IMU: the usual entry point for synthetic traces.
///
/// ```swift
/// let script = MotionScript.preset(named: "demo")!
/// var imu = try SimulatedIMU(script: script, sampleRate: 285.714, errorModel: .default)
/// print("# movement=" + imu.movementRanges.map { "\($0.lowerBound):\($0.upperBound)" }.joined(separator: ","))
/// while let s = imu.next() {
///     // s.time, s.accelerometer, s.gyroscope, s.magnetometer, s.truth, s.movement
/// }
/// ```
public struct SimulatedIMU: Sendable, IteratorProtocol, Sequence {
    /// The truth generator (its position advances with `next()`).
    public private(set) var generator: MotionGenerator
    /// The error process.
    public private(set) var errors: SensorErrorSimulator

    public init(generator: MotionGenerator, errorModel: SensorErrorModel = .default) throws(MotionSettingsError) {
        self.generator = generator
        errors = try SensorErrorSimulator(model: errorModel, sampleRate: generator.sampleRate)
    }

    /// See ``MotionGenerator/init(script:sampleRate:initialAttitude:initialHeading:environment:)``.
    public init(
        script: MotionScript, sampleRate: Double, errorModel: SensorErrorModel = .default,
        initialAttitude: Quaternion = .identity, initialHeading: Double = 0,
        environment: MotionEnvironment = .default
    ) throws(MotionSettingsError) {
        let generator = try MotionGenerator(
            script: script, sampleRate: sampleRate, initialAttitude: initialAttitude,
            initialHeading: initialHeading, environment: environment)
        try self.init(generator: generator, errorModel: errorModel)
    }

    /// The true attitude at the previous sample, for the gyroscope's interval mean.
    private var previousAttitude: Quaternion?

    /// The next sample. The gyroscope reports the mean angular rate over the interval since
    /// the previous sample — the rotation from q(t − dt) to q(t) divided by dt — as a MEMS
    /// gyroscope does behind its anti-aliasing low-pass (which averages the internal 1–32 kHz
    /// samples down to the output rate). An instantaneous rate would make a filter integrating
    /// it over the interval lead the truth by half a sample, an error that grows with the
    /// interval, i.e. that depends on the sample rate. The first sample has no interval and
    /// reports the instantaneous rate.
    public mutating func next() -> MeasuredSample? {
        guard var truth = generator.next() else { return nil }
        if let previousAttitude {
            let step = (previousAttitude.conjugate * truth.attitude).normalized
            truth.angularRate = step.rotationVector * Float(generator.sampleRate)
        }
        previousAttitude = truth.attitude
        return errors.measure(truth)
    }

    /// Samples in total.
    public var sampleCount: Int { generator.sampleCount }

    /// Movement index ranges `[a, b)`, see ``MotionGenerator/movementRanges``.
    public var movementRanges: [Range<Int>] { generator.movementRanges }
}
