import PoiseMath

/// How a real IMU's readings differ from the truth: noise, biases and their drift, scale and
/// cross-axis errors, temperature, hard and soft iron, magnetic disturbances, the
/// magnetometer's lag and the AK8963's fuse ROM. The one error model of both simulators:
/// ``SensorErrorSimulator`` (`poise synth`'s traces, ``SimulatedIMU``) and the register-level
/// simulated MPU-9250 (PoiseSimulation's `SimulatedMPU9250`, in single precision). Units are
/// given per field; a `seed` makes the noise reproducible (same seed → bit-identical
/// measurements on every machine).
///
/// Measurement equations, per axis (`⊙` element-wise, `C` the symmetric cross-axis coupling
/// `crossAxis`, `T(t)` the die temperature `temperature + temperatureRate · t`):
/// - gyroscope     = gyroscopeScale ⊙ C ω + gyroscopeBias(t) + gyroscopeBiasPerDegree · (T(t) − 25) + n_g,
///   σ = gyroscopeNoiseDensity · √bandwidth; the bias starts at `gyroscopeBias` and random-walks
///   with `gyroscopeBiasRandomWalk`
/// - accelerometer = accelerometerScale ⊙ C f + accelerometerBias + accelerometerBiasPerDegree · (T(t) − 25) + n_a,
///   σ = accelerometerNoiseDensity · √bandwidth
/// - magnetometer  = softIron · (m + disturbance)(t − magnetometerLatency) + hardIron + n_m,
///   σ = magnetometerNoise: the field as it was `magnetometerLatency` seconds earlier
///
/// Accelerometer and gyroscope errors are in the chip's frame (the body frame where no
/// mounting is simulated); hard and soft iron belong to the board, so they are in the body frame.
///
/// What each simulator applies: ``SensorErrorSimulator`` applies every field but
/// `magnetometerASA` (its readings are in µT, after the driver's sensitivity adjustment); its
/// bandwidth is the sample rate. The simulated MPU-9250 applies every field but
/// `gyroscopeBiasRandomWalk`, `magneticDisturbances` and `magnetometerLatency`, which it
/// refuses (``fieldsTheChipCannotApply``); its bandwidth is the configured DLPF's.
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
    /// Gyroscope bias at t = 0 and 25 °C, rad/s.
    public var gyroscopeBias: SIMD3<Double>
    /// Gyroscope bias random walk, rad/s/√s (0 = constant bias).
    public var gyroscopeBiasRandomWalk: Double
    /// Gyroscope scale factor per axis (1 = exact).
    public var gyroscopeScale: SIMD3<Double>
    /// Gyroscope bias change per °C away from 25 °C, rad/s/°C.
    public var gyroscopeBiasPerDegree: SIMD3<Double>
    /// Accelerometer white-noise density, m/s²/√Hz. MPU-9250: 300 µg/√Hz ≈ 2.94e-3.
    public var accelerometerNoiseDensity: Double
    /// Accelerometer bias at 25 °C, m/s².
    public var accelerometerBias: SIMD3<Double>
    /// Accelerometer scale factor per axis (1 = exact).
    public var accelerometerScale: SIMD3<Double>
    /// Accelerometer bias change per °C away from 25 °C, m/s²/°C.
    public var accelerometerBiasPerDegree: SIMD3<Double>
    /// Symmetric cross-axis coupling (xy, xz, yz) as fractions, for both accelerometer and gyroscope.
    public var crossAxis: SIMD3<Double>
    /// Die temperature at time 0, °C.
    public var temperature: Double
    /// Die temperature drift, °C/s.
    public var temperatureRate: Double
    /// Magnetometer noise, µT standard deviation per sample (AK8963 ≈ 0.3–0.6 µT).
    public var magnetometerNoise: Double
    /// Hard-iron offset added to the magnetometer, µT, body frame.
    public var hardIron: SIMD3<Double>
    /// Soft iron: the matrix applied to the true field, body frame (identity = none).
    public var softIron: SoftIron
    /// Extra magnetic fields during time windows.
    public var magneticDisturbances: [MagneticDisturbance]
    /// How much older the magnetometer's reading is than the gyroscope's, s (an AK8963 at
    /// 100 Hz delivers what it measured up to 10–20 ms before; 0 = none). Interpolated.
    public var magnetometerLatency: Double
    /// The AK8963's fuse-ROM sensitivity adjustment bytes (128 = no adjustment).
    public var magnetometerASA: SIMD3<UInt8>
    /// Seed of the noise generator.
    public var seed: UInt64

    /// A 3×3 matrix by its columns.
    public struct SoftIron: Sendable, Equatable {
        public var x: SIMD3<Double>
        public var y: SIMD3<Double>
        public var z: SIMD3<Double>

        public init(_ x: SIMD3<Double>, _ y: SIMD3<Double>, _ z: SIMD3<Double>) {
            self.x = x
            self.y = y
            self.z = z
        }

        /// A scale per axis and no coupling.
        public static func diagonal(_ d: SIMD3<Double>) -> SoftIron {
            SoftIron(SIMD3(d.x, 0, 0), SIMD3(0, d.y, 0), SIMD3(0, 0, d.z))
        }

        public static let identity = diagonal(.one)

        /// The diagonal, when every other entry is 0.
        public var diagonal: SIMD3<Double>? {
            guard x.y == 0, x.z == 0, y.x == 0, y.z == 0, z.x == 0, z.y == 0 else { return nil }
            return SIMD3(x.x, y.y, z.z)
        }
    }

    public init(
        gyroscopeNoiseDensity: Double = 1.75e-4, gyroscopeBias: SIMD3<Double> = .zero,
        gyroscopeBiasRandomWalk: Double = 0, gyroscopeScale: SIMD3<Double> = .one,
        gyroscopeBiasPerDegree: SIMD3<Double> = .zero,
        accelerometerNoiseDensity: Double = 2.94e-3, accelerometerBias: SIMD3<Double> = .zero,
        accelerometerScale: SIMD3<Double> = .one, accelerometerBiasPerDegree: SIMD3<Double> = .zero,
        crossAxis: SIMD3<Double> = .zero, temperature: Double = 30, temperatureRate: Double = 0,
        magnetometerNoise: Double = 0.3, hardIron: SIMD3<Double> = .zero, softIron: SoftIron = .identity,
        magneticDisturbances: [MagneticDisturbance] = [], magnetometerLatency: Double = 0,
        magnetometerASA: SIMD3<UInt8> = SIMD3(0xB0, 0xB3, 0xA7), seed: UInt64 = 1
    ) {
        self.gyroscopeNoiseDensity = gyroscopeNoiseDensity
        self.gyroscopeBias = gyroscopeBias
        self.gyroscopeBiasRandomWalk = gyroscopeBiasRandomWalk
        self.gyroscopeScale = gyroscopeScale
        self.gyroscopeBiasPerDegree = gyroscopeBiasPerDegree
        self.accelerometerNoiseDensity = accelerometerNoiseDensity
        self.accelerometerBias = accelerometerBias
        self.accelerometerScale = accelerometerScale
        self.accelerometerBiasPerDegree = accelerometerBiasPerDegree
        self.crossAxis = crossAxis
        self.temperature = temperature
        self.temperatureRate = temperatureRate
        self.magnetometerNoise = magnetometerNoise
        self.hardIron = hardIron
        self.softIron = softIron
        self.magneticDisturbances = magneticDisturbances
        self.magnetometerLatency = magnetometerLatency
        self.magnetometerASA = magnetometerASA
        self.seed = seed
    }

    /// A calibrated MPU-9250: datasheet noise and small residual biases and scale errors.
    public static let `default` = SensorErrorModel(
        gyroscopeBias: SIMD3(0.002, -0.003, 0.0015), gyroscopeScale: SIMD3(1.002, 0.998, 1.001),
        accelerometerBias: SIMD3(0.02, -0.015, 0.03), accelerometerScale: SIMD3(1.002, 0.999, 1.003),
        hardIron: SIMD3(0.5, -0.3, 0.4), softIron: .diagonal(SIMD3(1.01, 0.99, 1.0)))

    /// A perfect sensor: measurements equal the truth (converted to Float; on the simulated
    /// chip, quantised).
    public static let ideal = SensorErrorModel(
        gyroscopeNoiseDensity: 0, accelerometerNoiseDensity: 0, magnetometerNoise: 0,
        magnetometerASA: SIMD3(128, 128, 128))

    /// An uncalibrated MPU-9250 as the simulated chip (`simulation.sensor_errors: typical`)
    /// has it: the datasheet's noise (300 µg/√Hz, 0.01 °/s/√Hz, as single-precision values),
    /// biases, 0.3–2 % scale errors, cross-axis coupling, a gyroscope bias that follows the die
    /// temperature, 12–25 µT hard iron and a soft iron with coupling.
    public static let typical = SensorErrorModel(
        gyroscopeNoiseDensity: Double(Float(0.01) * .pi / 180), gyroscopeBias: SIMD3(0.02, -0.015, 0.01),
        gyroscopeScale: SIMD3(1.005, 0.997, 1.01), gyroscopeBiasPerDegree: SIMD3(1e-4, -1e-4, 5e-5),
        accelerometerNoiseDensity: Double(Float(300e-6) * 9.80665), accelerometerBias: SIMD3(0.08, -0.12, 0.2),
        accelerometerScale: SIMD3(1.01, 0.995, 1.02), crossAxis: SIMD3(0.002, -0.001, 0.0015),
        hardIron: SIMD3(12, -8, 25),
        softIron: SoftIron(SIMD3(1.05, 0.02, 0), SIMD3(0.02, 0.97, 0.01), SIMD3(0, 0.01, 1.0)))

    /// An uncalibrated MPU-9250: datasheet noise, large biases, 2 % scale errors, 25 µT hard iron.
    public static let uncalibrated = SensorErrorModel(
        gyroscopeBias: SIMD3(0.03, -0.02, 0.015), gyroscopeBiasRandomWalk: 1e-4,
        gyroscopeScale: SIMD3(1.02, 0.985, 1.01), accelerometerBias: SIMD3(0.3, -0.2, 0.4),
        accelerometerScale: SIMD3(1.02, 0.98, 1.015), magnetometerNoise: 0.6,
        hardIron: SIMD3(25, -12, 30), softIron: .diagonal(SIMD3(1.05, 0.95, 1.02)))

    /// A low-noise industrial IMU (the class of an ADIS16495 or an STIM300 in its MEMS
    /// grades): gyroscope 0.0015 °/s/√Hz (angle random walk 0.09°/√h), bias residual
    /// 0.01–0.03 °/s drifting by 0.0003 °/s/√s, scale within 0.05 %; accelerometer
    /// 13 µg/√Hz, 0.5–1 mg residual bias; a factory-calibrated magnetometer with 0.1 µT noise.
    public static let industrial = SensorErrorModel(
        gyroscopeNoiseDensity: 2.6e-5, gyroscopeBias: SIMD3(2e-4, -4e-4, 3e-4),
        gyroscopeBiasRandomWalk: 5e-6, gyroscopeScale: SIMD3(1.0003, 0.9996, 1.0005),
        accelerometerNoiseDensity: 1.3e-4, accelerometerBias: SIMD3(0.005, -0.008, 0.01),
        accelerometerScale: SIMD3(1.0002, 0.9998, 1.0003), magnetometerNoise: 0.1,
        hardIron: SIMD3(0.2, -0.1, 0.15), softIron: .diagonal(SIMD3(1.002, 0.998, 1.0)))

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
        hardIron: SIMD3(1, -0.6, 0.8), softIron: .diagonal(SIMD3(1.02, 0.98, 1.01)))

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

    /// The fields set away from "none" that the register-level simulated chip cannot apply
    /// (it has no bias random walk, no disturbance fields and no magnetometer lag), by name;
    /// empty when the chip can simulate this model.
    public var fieldsTheChipCannotApply: [String] {
        var names: [String] = []
        if gyroscopeBiasRandomWalk != 0 { names.append("gyroscopeBiasRandomWalk") }
        if !magneticDisturbances.isEmpty { names.append("magneticDisturbances") }
        if magnetometerLatency != 0 { names.append("magnetometerLatency") }
        return names
    }

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
        try check(gyroscopeBiasPerDegree, "gyroscopeBiasPerDegree")
        try check(accelerometerBias, "accelerometerBias")
        try check(accelerometerScale, "accelerometerScale")
        try check(accelerometerBiasPerDegree, "accelerometerBiasPerDegree")
        try check(crossAxis, "crossAxis")
        try check(SIMD3(temperature, temperatureRate, 0), "temperature and temperatureRate")
        try check(hardIron, "hardIron")
        try check(softIron.x, "softIron")
        try check(softIron.y, "softIron")
        try check(softIron.z, "softIron")
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
