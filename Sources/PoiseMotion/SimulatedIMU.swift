import PoiseMath

/// One simulated IMU reading with its ground truth.
public struct MeasuredSample: Sendable, Equatable {
    /// Sample index from 0.
    public var index: Int
    /// Seconds since the start: `Double(index) / sampleRate`.
    public var time: Double
    /// Accelerometer, m/s², body frame (specific force plus errors).
    public var accelerometer: SIMD3<Float>
    /// Gyroscope, rad/s, body frame.
    public var gyroscope: SIMD3<Float>
    /// Magnetometer, µT, body frame.
    public var magnetometer: SIMD3<Float>
    /// True attitude, body-to-ENU.
    public var truth: Quaternion
    /// Whether the sample is in a movement segment.
    public var movement: Bool
    /// The gyroscope bias in effect for this sample (rad/s), for checking bias estimators.
    public var gyroscopeBias: SIMD3<Float>

    public init(
        index: Int, time: Double, accelerometer: SIMD3<Float>, gyroscope: SIMD3<Float>, magnetometer: SIMD3<Float>,
        truth: Quaternion, movement: Bool, gyroscopeBias: SIMD3<Float> = .zero
    ) {
        self.index = index
        self.time = time
        self.accelerometer = accelerometer
        self.gyroscope = gyroscope
        self.magnetometer = magnetometer
        self.truth = truth
        self.movement = movement
        self.gyroscopeBias = gyroscopeBias
    }
}

/// Applies a ``SensorErrorModel`` to truth samples, one at a time, in order.
///
/// Holds the noise generator and the wandering gyroscope bias, so feed it every sample of
/// one run in order. Deterministic: the same model (seed) and samples give the same output.
public struct SensorErrorSimulator: Sendable {
    public let model: SensorErrorModel
    public let sampleRate: Double
    private var random: DeterministicRandom
    private var gyroscopeBias: SIMD3<Double>
    private let gyroscopeSigma: Double
    private let accelerometerSigma: Double
    private let biasStepSigma: Double

    /// - Throws: ``MotionSettingsError`` for invalid model values or a bad rate.
    public init(model: SensorErrorModel, sampleRate: Double) throws(MotionSettingsError) {
        guard sampleRate > 0, sampleRate.isFinite else {
            throw MotionSettingsError("sample rate must be positive and finite, got \(sampleRate)")
        }
        try model.validate()
        self.model = model
        self.sampleRate = sampleRate
        random = DeterministicRandom(seed: model.seed)
        gyroscopeBias = model.gyroscopeBias
        gyroscopeSigma = model.gyroscopeNoiseDensity * sampleRate.squareRoot()
        accelerometerSigma = model.accelerometerNoiseDensity * sampleRate.squareRoot()
        biasStepSigma = model.gyroscopeBiasRandomWalk / sampleRate.squareRoot()
    }

    private mutating func gaussian3() -> SIMD3<Double> {
        let x = random.nextGaussian()
        let y = random.nextGaussian()
        let z = random.nextGaussian()
        return SIMD3(x, y, z)
    }

    /// The measurement of `sample` with the model's errors.
    public mutating func measure(_ sample: MotionSample) -> MeasuredSample {
        // Always draw the same count of numbers per sample so the sequence never depends
        // on which errors are switched on.
        let accelerometerNoise = gaussian3()
        let gyroscopeNoise = gaussian3()
        let magnetometerNoise = gaussian3()
        let biasStep = gaussian3()

        let f = SIMD3<Double>(sample.specificForce)
        let accelerometer =
            model.accelerometerScale * f + model.accelerometerBias + accelerometerSigma * accelerometerNoise

        let bias = gyroscopeBias
        let w = SIMD3<Double>(sample.angularRate)
        let gyroscope = model.gyroscopeScale * w + bias + gyroscopeSigma * gyroscopeNoise
        gyroscopeBias += biasStepSigma * biasStep

        var field = SIMD3<Double>(sample.magneticField)
        for disturbance in model.magneticDisturbances {
            let amount = disturbance.envelope(at: sample.time)
            guard amount > 0 else { continue }
            switch disturbance.frame {
            case .body:
                field += amount * disturbance.field
            case .world:
                let d = disturbance.field
                let body = RotationD(sample.attitude).inverseRotate(Vector3D(d.x, d.y, d.z))
                field += amount * SIMD3(body.x, body.y, body.z)
            }
        }
        let magnetometer = model.softIronScale * field + model.hardIronOffset + model.magnetometerNoise * magnetometerNoise

        return MeasuredSample(
            index: sample.index, time: sample.time, accelerometer: SIMD3<Float>(accelerometer),
            gyroscope: SIMD3<Float>(gyroscope), magnetometer: SIMD3<Float>(magnetometer), truth: sample.attitude,
            movement: sample.movement, gyroscopeBias: SIMD3<Float>(bias))
    }
}

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
