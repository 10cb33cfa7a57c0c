import PoiseMath

/// The sensor errors the simulated MPU-9250 and AK8963 add to the true motion.
///
/// Accel/gyro errors are in the chip frame; hard and soft iron belong to the board, so they
/// are in the body frame. Noise densities follow the datasheet's convention: RMS noise is
/// density · √(bandwidth).
public struct SimulatedIMUErrors: Sendable, Equatable {
    /// m/s²/√Hz (datasheet: 300 µg/√Hz).
    public var accelerometerNoiseDensity: Float = 300e-6 * 9.80665
    /// rad/s/√Hz (datasheet: 0.01 °/s/√Hz).
    public var gyroscopeNoiseDensity: Float = 0.01 * .pi / 180
    /// m/s², chip frame.
    public var accelerometerBias: SIMD3<Float> = .zero
    /// rad/s, chip frame.
    public var gyroscopeBias: SIMD3<Float> = .zero
    /// Multiplicative scale per axis (1 = exact).
    public var accelerometerScale: SIMD3<Float> = .one
    public var gyroscopeScale: SIMD3<Float> = .one
    /// Symmetric cross-axis coupling (xy, xz, yz) as fractions, for both sensors.
    public var crossAxis: SIMD3<Float> = .zero
    /// Gyro bias change per °C away from 25 °C, rad/s/°C.
    public var gyroscopeBiasPerDegree: SIMD3<Float> = .zero
    /// Accel bias change per °C away from 25 °C, m/s²/°C.
    public var accelerometerBiasPerDegree: SIMD3<Float> = .zero
    /// Die temperature at time 0, °C, and its drift, °C/s.
    public var temperature: Float = 30
    public var temperatureRate: Float = 0
    /// Magnetometer RMS noise per measurement, µT.
    public var magnetometerNoise: Float = 0.3
    /// Hard iron (constant offset), µT, body frame.
    public var hardIron: SIMD3<Float> = .zero
    /// Soft iron: columns of the matrix applied to the true field, body frame.
    public var softIron: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>) = (SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))
    /// The AK8963's fuse-ROM sensitivity adjustment bytes.
    public var magnetometerASA: SIMD3<UInt8> = SIMD3(0xB0, 0xB3, 0xA7)

    public init() {}

    /// No noise and no errors: outputs are the true values, quantised.
    public static var ideal: SimulatedIMUErrors {
        var errors = SimulatedIMUErrors()
        errors.accelerometerNoiseDensity = 0
        errors.gyroscopeNoiseDensity = 0
        errors.magnetometerNoise = 0
        errors.magnetometerASA = SIMD3(128, 128, 128)
        return errors
    }

    /// Datasheet noise and modest, realistic errors.
    public static var typical: SimulatedIMUErrors {
        var errors = SimulatedIMUErrors()
        errors.gyroscopeBias = SIMD3(0.02, -0.015, 0.01)
        errors.accelerometerBias = SIMD3(0.08, -0.12, 0.2)
        errors.accelerometerScale = SIMD3(1.01, 0.995, 1.02)
        errors.gyroscopeScale = SIMD3(1.005, 0.997, 1.01)
        errors.crossAxis = SIMD3(0.002, -0.001, 0.0015)
        errors.gyroscopeBiasPerDegree = SIMD3(1e-4, -1e-4, 5e-5)
        errors.hardIron = SIMD3(12, -8, 25)
        errors.softIron = (SIMD3(1.05, 0.02, 0), SIMD3(0.02, 0.97, 0.01), SIMD3(0, 0.01, 1.0))
        return errors
    }

    public static func == (a: SimulatedIMUErrors, b: SimulatedIMUErrors) -> Bool {
        a.accelerometerNoiseDensity == b.accelerometerNoiseDensity && a.gyroscopeNoiseDensity == b.gyroscopeNoiseDensity
            && a.accelerometerBias == b.accelerometerBias && a.gyroscopeBias == b.gyroscopeBias
            && a.accelerometerScale == b.accelerometerScale && a.gyroscopeScale == b.gyroscopeScale
            && a.crossAxis == b.crossAxis && a.hardIron == b.hardIron && a.softIron.0 == b.softIron.0
            && a.softIron.1 == b.softIron.1 && a.softIron.2 == b.softIron.2 && a.temperature == b.temperature
            && a.magnetometerNoise == b.magnetometerNoise && a.magnetometerASA == b.magnetometerASA
            && a.gyroscopeBiasPerDegree == b.gyroscopeBiasPerDegree
            && a.accelerometerBiasPerDegree == b.accelerometerBiasPerDegree && a.temperatureRate == b.temperatureRate
    }

    /// Scale, cross-axis coupling and bias applied to a true chip-frame vector.
    func distort(_ v: SIMD3<Float>, scale: SIMD3<Float>, bias: SIMD3<Float>) -> SIMD3<Float> {
        let c = crossAxis
        let coupled = v + SIMD3(c.x * v.y + c.y * v.z, c.x * v.x + c.z * v.z, c.y * v.x + c.z * v.y)
        return coupled * scale + bias
    }

    /// The board's hard and soft iron applied to the true body-frame field.
    func ironDistort(_ field: SIMD3<Float>) -> SIMD3<Float> {
        softIron.0 * field.x + softIron.1 * field.y + softIron.2 * field.z + hardIron
    }
}

/// Faults the simulated chip can be told to produce.
public struct SimulatedFaults: Sendable, Equatable {
    /// The MPU does not acknowledge anything (EREMOTEIO), as if unplugged.
    public var nack = false
    /// The next N transactions to the MPU are not acknowledged, then it recovers.
    public var failNextTransactions = 0
    /// Reads from the MPU end early (the kernel reports EIO).
    public var shortRead = false
    /// The data registers stop updating.
    public var stuckData = false
    /// The converter stops (a dead oscillator): no conversions, no data-ready, every register
    /// as it was — what SLEEP does, without the configuration change the driver's checked
    /// registers would take for a chip reset.
    public var stopsConverting = false
    /// Probability per read transaction that one random bit of the result is flipped.
    public var bitFlipProbability: Double = 0
    /// WHO_AM_I answers this instead of 0x71 (e.g. 0x70 to act as an MPU-6500).
    public var whoAmI: UInt8? = nil
    /// No AK8963 answers at 0x0C.
    public var magnetometerAbsent = false
    /// The AK8963 answers but never produces data (DRDY stays clear).
    public var magnetometerSilent = false
    /// The next INT_STATUS read reports a FIFO overflow (the FIFO also loses a byte).
    public var fifoOverflow = false

    public init() {}
}

extension DeterministicRandom {
    /// Three standard normal numbers as the simulated chip's single-precision vector: the
    /// project's one generator (PoiseMath), whose Gaussians are bit-identical on every CPU.
    mutating func nextGaussian3() -> SIMD3<Float> {
        SIMD3(Float(nextGaussian()), Float(nextGaussian()), Float(nextGaussian()))
    }
}
