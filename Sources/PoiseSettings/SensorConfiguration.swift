import PoiseConfig
import PoiseDeviceSettings
import PoiseSensors
import PoiseTraces

// The `board` and `sensor` sections turned into what the MPU-9250 driver runs with. The
// `sensor` keys are bound to `MPU9250Settings` fields in PoiseConfig (their defaults are the
// driver's own); this adds what other sections set.

extension MPU9250Settings {
    /// The driver settings a configuration asks for: the `sensor` ranges, bandwidth, rates,
    /// FIFO and failure policy (bound in PoiseConfig), `board.address`, `board.mounting`, and
    /// `loop.rate_hz` as the tick rate. Settings the file has no key for keep their
    /// `MPU9250Settings.default`.
    ///
    /// - `sensor.dlpf_hz` sets the gyroscope bandwidth; the accelerometer gets the nearest of
    ///   its own bandwidths (92 → 99 Hz, 41 → 45 Hz, 250 and 184 → 218.1 Hz, …).
    /// - `sensor.sample_rate_hz` becomes the SMPLRT_DIV divider whose rate
    ///   `internal / (1 + divider)` is nearest: 300 Hz gives 333.3 Hz, 600 Hz gives 500 Hz.
    ///   `outputRate` says what the chip will really do.
    /// - `sensor.magnetometer: false` powers the AK8963 down (6D).
    public init(configuration: PoiseConfiguration) {
        self = configuration.sensor.driver
        let board = configuration.board
        // The parser admits only 0x68 and 0x69.
        address = UInt8(truncatingIfNeeded: board.address)
        mounting = board.mounting
        accelerometerBandwidth = Self.accelerometerBandwidth(nearest: gyroscopeBandwidth.hertz)
        tickRate = configuration.loop.rateHz
    }

    /// The SMPLRT_DIV value (0…255) whose output rate `internalRate / (1 + divider)` is
    /// nearest to `rate`; on a tie, the faster one.
    public static func sampleRateDivider(nearest rate: Double, internalRate: Double) -> UInt8 {
        SensorRate.divider(nearest: rate, internalRate: internalRate)
    }

    /// The accelerometer bandwidth nearest to `hertz` (the 420 Hz setting is left out: it
    /// lets through what the gyroscope filter removes).
    static func accelerometerBandwidth(nearest hertz: Double) -> AccelerometerBandwidth {
        let choices: [AccelerometerBandwidth] = [.hz218, .hz99, .hz45, .hz21, .hz10, .hz5]
        return choices.min { abs($0.hertz - hertz) < abs($1.hertz - hertz) } ?? .hz99
    }
}

/// The parts `poise calibrate` measures, each with the `sensor.calibration` keys it owns.
public enum CalibrationPart: String, CaseIterable, Sendable {
    case gyroscope, accelerometer, magnetometer

    /// Dotted configuration paths, in schema order.
    public var configurationPaths: [String] {
        switch self {
        case .gyroscope: ["sensor.calibration.gyroscope_bias"]
        case .accelerometer: ["sensor.calibration.accelerometer_offset", "sensor.calibration.accelerometer_scale"]
        case .magnetometer: ["sensor.calibration.magnetometer_hard_iron", "sensor.calibration.magnetometer_soft_iron"]
        }
    }
}

extension SensorCalibration {
    /// The calibration the driver applies (body frame) from `sensor.calibration` (chip
    /// frame), turned through `board.mounting`: re-mounting a board needs no new calibration.
    public init(configuration: PoiseConfiguration) {
        let c = configuration.sensor.calibration
        let chipFrame = SensorCalibration(
            gyroscopeBias: Self.float(c.gyroscopeBias),
            accelerometerOffset: Self.float(c.accelerometerOffset),
            accelerometerScale: Self.float(c.accelerometerScale),
            magnetometerHardIron: Self.float(c.magnetometerHardIron),
            magnetometerSoftIron: (Self.float(c.magnetometerSoftIron[row: 0]), Self.float(c.magnetometerSoftIron[row: 1]),
                                   Self.float(c.magnetometerSoftIron[row: 2])))
        self = chipFrame.inBodyFrame(configuration.board.mounting)
    }

    /// The `sensor.calibration` values of `part` for a configuration file, chip frame (this
    /// calibration being in the body frame of a chip mounted as `mounting`).
    ///
    /// Each number is the shortest decimal that reads back to the same `Float`, so saving and
    /// loading gives the driver the very values that were measured.
    public func configurationValues(for part: CalibrationPart, mounting: Mounting) -> [(path: String, value: ConfigValue)] {
        let chip = inChipFrame(mounting)
        let values: [ConfigValue]
        switch part {
        case .gyroscope:
            values = [.vector3(Self.double(chip.gyroscopeBias))]
        case .accelerometer:
            values = [.vector3(Self.double(chip.accelerometerOffset)), .vector3(Self.double(chip.accelerometerScale))]
        case .magnetometer:
            let w = chip.magnetometerSoftIron
            values = [.vector3(Self.double(chip.magnetometerHardIron)),
                      .matrix3(ConfigMatrix3(Self.double(w.0), Self.double(w.1), Self.double(w.2)))]
        }
        return Array(zip(part.configurationPaths, values)).map { (path: $0.0, value: $0.1) }
    }

    static func float(_ v: SIMD3<Double>) -> SIMD3<Float> { SIMD3(Float(v.x), Float(v.y), Float(v.z)) }

    /// Each component through its shortest decimal form: `Float(0.1)` becomes `0.1`, not
    /// `0.10000000149011612`.
    static func double(_ v: SIMD3<Float>) -> SIMD3<Double> {
        SIMD3(Double("\(v.x)") ?? Double(v.x), Double("\(v.y)") ?? Double(v.y), Double("\(v.z)") ?? Double(v.z))
    }
}

// MARK: Calibrating recorded traces


extension SensorCalibration {
    /// The trace metadata key that says whether a trace's sensor columns are raw readings
    /// (`no`) or already corrected by a calibration (`yes`). Which calibration a trace gets
    /// is decided in one place, PoiseReplay's `TraceFeed.calibration(for:)`.
    public static let traceMetadataKey = "calibrated"

    /// A trace sample with its readings corrected (truth and time untouched).
    @inlinable
    public func corrected(_ sample: TraceSample) -> TraceSample {
        var result = sample
        result.accelerometer = correctAccelerometer(sample.accelerometer)
        result.gyroscope = correctGyroscope(sample.gyroscope)
        if let m = sample.magnetometer { result.magnetometer = correctMagnetometer(m) }
        return result
    }
}
