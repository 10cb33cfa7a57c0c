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

    public mutating func next() -> MeasuredSample? {
        guard let truth = generator.next() else { return nil }
        return errors.measure(truth)
    }

    /// Samples in total.
    public var sampleCount: Int { generator.sampleCount }

    /// Movement index ranges `[a, b)`, see ``MotionGenerator/movementRanges``.
    public var movementRanges: [Range<Int>] { generator.movementRanges }
}
