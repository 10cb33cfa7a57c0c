import PoiseMath

/// How a simulated IMU departs from the truth: noise, biases, scale errors, hard and soft
/// iron, magnetic disturbances. Units are given per field; a `seed` makes the noise
/// reproducible (same seed → bit-identical measurements on every machine).
///
/// Measurement equations, per axis (`⊙` element-wise):
/// - gyroscope     = gyroscopeScale ⊙ ω + gyroscopeBias(t) + n_g,  σ = gyroscopeNoiseDensity · √rate,
///   where `SimulatedIMU` gives ω as the mean rate over the sample interval (as a MEMS gyroscope
///   behind its anti-aliasing filter reports it);
///   the bias starts at `gyroscopeBias` and random-walks with `gyroscopeBiasRandomWalk`
/// - accelerometer = accelerometerScale ⊙ f + accelerometerBias + n_a,  σ = accelerometerNoiseDensity · √rate
/// - magnetometer  = softIronScale ⊙ (m + disturbance)(t − magnetometerLatency) + hardIronOffset + n_m,
///   σ = magnetometerNoise: the field as it was `magnetometerLatency` seconds earlier
///
/// ```swift
/// var model = SensorErrorModel.default
/// model.seed = 7
/// model.gyroscopeBias = SIMD3(0.01, 0, 0)              // rad/s
/// model.magneticDisturbances = [.dipole(start: 10, end: 15, moment: SIMD3(0, 0, 0.5), position: SIMD3(0.1, 0, 0))]
/// ```
public struct SensorErrorModel: Sendable, Equatable {
    /// Gyroscope white-noise density, rad/s/√Hz. MPU-9250: 0.01 °/s/√Hz ≈ 1.75e-4.
    public var gyroscopeNoiseDensity: Double
    /// Gyroscope bias at t = 0, rad/s, body frame.
    public var gyroscopeBias: SIMD3<Double>
    /// Gyroscope bias random walk, rad/s/√s (0 = constant bias).
    public var gyroscopeBiasRandomWalk: Double
    /// Gyroscope scale factor per axis (1 = exact).
    public var gyroscopeScale: SIMD3<Double>
    /// Accelerometer white-noise density, m/s²/√Hz. MPU-9250: 300 µg/√Hz ≈ 2.94e-3.
    public var accelerometerNoiseDensity: Double
    /// Accelerometer bias, m/s², body frame.
    public var accelerometerBias: SIMD3<Double>
    /// Accelerometer scale factor per axis (1 = exact).
    public var accelerometerScale: SIMD3<Double>
    /// Magnetometer noise, µT standard deviation per sample (AK8963 ≈ 0.3–0.6 µT).
    public var magnetometerNoise: Double
    /// Hard-iron offset added to the magnetometer, µT, body frame.
    public var hardIronOffset: SIMD3<Double>
    /// Soft-iron / sensitivity scale per magnetometer axis (1 = exact).
    public var softIronScale: SIMD3<Double>
    /// Extra magnetic fields during time windows.
    public var magneticDisturbances: [MagneticDisturbance]
    /// How much older the magnetometer's reading is than the gyroscope's, s (an AK8963 at
    /// 100 Hz delivers what it measured up to 10–20 ms before; 0 = none). Interpolated.
    public var magnetometerLatency: Double
    /// Seed of the noise generator.
    public var seed: UInt64

    public init(
        gyroscopeNoiseDensity: Double = 1.75e-4, gyroscopeBias: SIMD3<Double> = .zero,
        gyroscopeBiasRandomWalk: Double = 0, gyroscopeScale: SIMD3<Double> = .one,
        accelerometerNoiseDensity: Double = 2.94e-3, accelerometerBias: SIMD3<Double> = .zero,
        accelerometerScale: SIMD3<Double> = .one, magnetometerNoise: Double = 0.3,
        hardIronOffset: SIMD3<Double> = .zero, softIronScale: SIMD3<Double> = .one,
        magneticDisturbances: [MagneticDisturbance] = [], magnetometerLatency: Double = 0,
        seed: UInt64 = 1
    ) {
        self.gyroscopeNoiseDensity = gyroscopeNoiseDensity
        self.gyroscopeBias = gyroscopeBias
        self.gyroscopeBiasRandomWalk = gyroscopeBiasRandomWalk
        self.gyroscopeScale = gyroscopeScale
        self.accelerometerNoiseDensity = accelerometerNoiseDensity
        self.accelerometerBias = accelerometerBias
        self.accelerometerScale = accelerometerScale
        self.magnetometerNoise = magnetometerNoise
        self.hardIronOffset = hardIronOffset
        self.softIronScale = softIronScale
        self.magneticDisturbances = magneticDisturbances
        self.magnetometerLatency = magnetometerLatency
        self.seed = seed
    }

    /// A calibrated MPU-9250: datasheet noise and small residual biases and scale errors.
    public static let `default` = SensorErrorModel(
        gyroscopeBias: SIMD3(0.002, -0.003, 0.0015), gyroscopeScale: SIMD3(1.002, 0.998, 1.001),
        accelerometerBias: SIMD3(0.02, -0.015, 0.03), accelerometerScale: SIMD3(1.002, 0.999, 1.003),
        hardIronOffset: SIMD3(0.5, -0.3, 0.4), softIronScale: SIMD3(1.01, 0.99, 1.0))

    /// A perfect sensor: measurements equal the truth (converted to Float).
    public static let ideal = SensorErrorModel(
        gyroscopeNoiseDensity: 0, accelerometerNoiseDensity: 0, magnetometerNoise: 0)

    /// An uncalibrated MPU-9250: datasheet noise, large biases, 2 % scale errors, 25 µT hard iron.
    public static let uncalibrated = SensorErrorModel(
        gyroscopeBias: SIMD3(0.03, -0.02, 0.015), gyroscopeBiasRandomWalk: 1e-4,
        gyroscopeScale: SIMD3(1.02, 0.985, 1.01), accelerometerBias: SIMD3(0.3, -0.2, 0.4),
        accelerometerScale: SIMD3(1.02, 0.98, 1.015), magnetometerNoise: 0.6,
        hardIronOffset: SIMD3(25, -12, 30), softIronScale: SIMD3(1.05, 0.95, 1.02))

    /// A low-noise industrial IMU (the class of an ADIS16495 or an STIM300 in its MEMS
    /// grades): gyroscope 0.0015 °/s/√Hz (angle random walk 0.09°/√h), bias residual
    /// 0.01–0.03 °/s drifting by 0.0003 °/s/√s, scale within 0.05 %; accelerometer
    /// 13 µg/√Hz, 0.5–1 mg residual bias; a factory-calibrated magnetometer with 0.1 µT noise.
    public static let industrial = SensorErrorModel(
        gyroscopeNoiseDensity: 2.6e-5, gyroscopeBias: SIMD3(2e-4, -4e-4, 3e-4),
        gyroscopeBiasRandomWalk: 5e-6, gyroscopeScale: SIMD3(1.0003, 0.9996, 1.0005),
        accelerometerNoiseDensity: 1.3e-4, accelerometerBias: SIMD3(0.005, -0.008, 0.01),
        accelerometerScale: SIMD3(1.0002, 0.9998, 1.0003), magnetometerNoise: 0.1,
        hardIronOffset: SIMD3(0.2, -0.1, 0.15), softIronScale: SIMD3(1.002, 0.998, 1.0))

    /// A noisy consumer part (the class of an L3GD20 gyroscope beside an LSM303 or a
    /// low-power LIS2DH accelerometer, as in cheap breakout boards and older phones), not
    /// calibrated beyond the factory: gyroscope 0.03 °/s/√Hz with a 0.6–1.1 °/s bias that
    /// wanders by 0.01 °/s/√s and 1–1.5 % scale errors; accelerometer 800 µg/√Hz, 0.1–0.2 m/s²
    /// bias, 1–1.5 % scale; magnetometer 1 µT noise.
    public static let consumer = SensorErrorModel(
        gyroscopeNoiseDensity: 5.2e-4, gyroscopeBias: SIMD3(0.012, -0.019, 0.01),
        gyroscopeBiasRandomWalk: 2e-4, gyroscopeScale: SIMD3(1.012, 0.986, 1.015),
        accelerometerNoiseDensity: 7.8e-3, accelerometerBias: SIMD3(0.15, -0.1, 0.2),
        accelerometerScale: SIMD3(1.012, 0.99, 1.015), magnetometerNoise: 1.0,
        hardIronOffset: SIMD3(1, -0.6, 0.8), softIronScale: SIMD3(1.02, 0.98, 1.01))

    /// Named models for command-line use: `ideal`, `default`, `uncalibrated`, `industrial`,
    /// `consumer`.
    public static func preset(named name: String) -> SensorErrorModel? {
        switch name.lowercased() {
        case "ideal": return .ideal
        case "default": return .default
        case "uncalibrated": return .uncalibrated
        case "industrial": return .industrial
        case "consumer": return .consumer
        default: return nil
        }
    }

    /// Names accepted by ``preset(named:)``.
    public static let presetNames = ["ideal", "default", "uncalibrated", "industrial", "consumer"]

    /// Rejects negative or non-finite values, naming the field.
    public func validate() throws(MotionSettingsError) {
        func check(_ value: Double, _ name: String, unit: String) throws(MotionSettingsError) {
            guard value.isFinite, value >= 0 else {
                throw MotionSettingsError("\(name) must be a finite value ≥ 0 \(unit), got \(value)")
            }
        }
        func check(_ v: SIMD3<Double>, _ name: String) throws(MotionSettingsError) {
            guard v.x.isFinite, v.y.isFinite, v.z.isFinite else {
                throw MotionSettingsError("\(name) must be finite, got \(v)")
            }
        }
        try check(gyroscopeNoiseDensity, "gyroscopeNoiseDensity", unit: "rad/s/√Hz")
        try check(gyroscopeBiasRandomWalk, "gyroscopeBiasRandomWalk", unit: "rad/s/√s")
        try check(accelerometerNoiseDensity, "accelerometerNoiseDensity", unit: "m/s²/√Hz")
        try check(magnetometerNoise, "magnetometerNoise", unit: "µT")
        try check(magnetometerLatency, "magnetometerLatency", unit: "s")
        try check(gyroscopeBias, "gyroscopeBias")
        try check(gyroscopeScale, "gyroscopeScale")
        try check(accelerometerBias, "accelerometerBias")
        try check(accelerometerScale, "accelerometerScale")
        try check(hardIronOffset, "hardIronOffset")
        try check(softIronScale, "softIronScale")
        for d in magneticDisturbances {
            try check(d.field, "magnetic disturbance field")
            guard d.start.isFinite, d.end.isFinite, d.start <= d.end, d.ramp.isFinite, d.ramp >= 0 else {
                throw MotionSettingsError(
                    "magnetic disturbance needs finite start ≤ end and ramp ≥ 0, got \(d.start)…\(d.end) ramp \(d.ramp)")
            }
        }
    }
}

/// An extra magnetic field present during `[start, end]` seconds, faded in and out over
/// `ramp` seconds with a raised cosine so it has no step.
public struct MagneticDisturbance: Sendable, Equatable {
    /// Which frame `field` is fixed in.
    public enum Frame: Sendable, Equatable {
        /// A magnet fixed in the room: the sensor sees it turn as the sensor turns.
        case world
        /// A magnet carried with the sensor: constant in body coordinates.
        case body
    }

    public var start: Double
    public var end: Double
    /// Extra field, µT, in `frame` coordinates (world = ENU).
    public var field: SIMD3<Double>
    public var frame: Frame
    /// Fade-in and fade-out time, s.
    public var ramp: Double

    public init(start: Double, end: Double, field: SIMD3<Double>, frame: Frame = .world, ramp: Double = 0.2) {
        self.start = start
        self.end = end
        self.field = field
        self.frame = frame
        self.ramp = ramp
    }

    /// The field of a magnetic dipole of `moment` (A·m²) located at `position` (m) relative
    /// to the sensor: B = μ₀/4π · (3(m·r̂)r̂ − m)/|r|³, with μ₀/4π = 1e-7 T·m/A.
    /// A fridge magnet (≈0.1 A·m²) 5 cm away gives 80–160 µT.
    public static func dipole(
        start: Double, end: Double, moment: SIMD3<Double>, position: SIMD3<Double>, frame: Frame = .world,
        ramp: Double = 0.2
    ) -> MagneticDisturbance {
        let r2 = (position * position).sum()
        let r = r2.squareRoot()
        guard r > 1e-6 else { return MagneticDisturbance(start: start, end: end, field: .zero, frame: frame, ramp: ramp) }
        let unit = position / r
        let along = (moment * unit).sum()
        let field = 0.1 * (3 * along * unit - moment) / (r2 * r)  // µT
        return MagneticDisturbance(start: start, end: end, field: field, frame: frame, ramp: ramp)
    }

    /// Fraction of the field present at `time` (0…1).
    func envelope(at time: Double) -> Double {
        guard time >= start, time <= end else { return 0 }
        let half = (end - start) / 2
        let ramp = Swift.min(self.ramp, half)
        guard ramp > 0 else { return 1 }
        let edge = Swift.min(time - start, end - time)
        guard edge < ramp else { return 1 }
        return 0.5 - 0.5 * Elementary.cos(Double.pi * edge / ramp)
    }
}
