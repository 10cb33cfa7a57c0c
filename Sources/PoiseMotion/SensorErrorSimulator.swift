import PoiseMath

/// Applies a ``SensorErrorModel`` to truth samples, one at a time, in order: every field but
/// `magnetometerASA` (the readings are µT after the driver's sensitivity adjustment, so the
/// fuse ROM has nothing to change); the noise bandwidth is the sample rate.
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
    /// The field of the last few samples (oldest first), for a magnetometer that lags.
    private var fieldHistory: [SIMD3<Double>] = []

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

    /// The field `magnetometerLatency` before the current sample `field`, interpolated between
    /// samples (the first sample's before the run starts).
    private mutating func lagged(_ field: SIMD3<Double>) -> SIMD3<Double> {
        let samples = model.magnetometerLatency * sampleRate
        guard samples > 0 else { return field }
        let whole = Int(samples)
        if fieldHistory.count > whole + 1 { fieldHistory.removeFirst() }
        fieldHistory.append(field)
        let last = fieldHistory.count - 1
        let newer = fieldHistory[max(last - whole, 0)]
        let older = fieldHistory[max(last - whole - 1, 0)]
        let fraction = samples - Double(whole)
        return newer + fraction * (older - newer)
    }

    /// `v` with the model's cross-axis coupling (`v` itself when there is none).
    private func coupled(_ v: SIMD3<Double>) -> SIMD3<Double> {
        let c = model.crossAxis
        guard c != .zero else { return v }
        return v + SIMD3(c.x * v.y + c.y * v.z, c.x * v.x + c.z * v.z, c.y * v.x + c.z * v.y)
    }

    /// The bias change at `warm` °C above 25 °C (exactly zero without a temperature coefficient).
    private func drift(_ perDegree: SIMD3<Double>, _ warm: Double) -> SIMD3<Double> {
        perDegree == .zero ? .zero : perDegree * warm
    }

    /// The measurement of `sample` with the model's errors.
    public mutating func measure(_ sample: MotionSample) -> MeasuredSample {
        // Always draw the same count of numbers per sample so the sequence never depends
        // on which errors are switched on.
        let accelerometerNoise = gaussian3()
        let gyroscopeNoise = gaussian3()
        let magnetometerNoise = gaussian3()
        let biasStep = gaussian3()

        let warm = model.temperature + model.temperatureRate * sample.time - 25
        let f = coupled(SIMD3<Double>(sample.specificForce))
        let accelerometer =
            model.accelerometerScale * f + model.accelerometerBias
            + drift(model.accelerometerBiasPerDegree, warm) + accelerometerSigma * accelerometerNoise

        let bias = gyroscopeBias + drift(model.gyroscopeBiasPerDegree, warm)
        let w = coupled(SIMD3<Double>(sample.angularRate))
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
        field = lagged(field)
        let iron = model.softIron
        let soft = iron.diagonal.map { $0 * field } ?? iron.x * field.x + iron.y * field.y + iron.z * field.z
        let magnetometer = soft + model.hardIron + model.magnetometerNoise * magnetometerNoise

        return MeasuredSample(
            index: sample.index, time: sample.time, accelerometer: SIMD3<Float>(accelerometer),
            gyroscope: SIMD3<Float>(gyroscope), magnetometer: SIMD3<Float>(magnetometer), truth: sample.attitude,
            movement: sample.movement, gyroscopeBias: SIMD3<Float>(bias))
    }
}
