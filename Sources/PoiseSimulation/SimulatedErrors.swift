import PoiseMath
import PoiseMotion

/// How the simulated MPU-9250 and AK8963 apply a ``SensorErrorModel``: in single precision,
/// accelerometer and gyroscope errors in the chip frame, hard and soft iron in the body frame.
/// The chip has no bias random walk, no disturbance fields and no magnetometer lag:
/// ``SensorErrorModel/fieldsTheChipCannotApply`` names them and the chip refuses a model that
/// sets them.
extension SensorErrorModel {
    /// Scale, cross-axis coupling and bias applied to a true chip-frame vector.
    func distort(_ v: SIMD3<Float>, scale: SIMD3<Double>, bias: SIMD3<Float>) -> SIMD3<Float> {
        let c = SIMD3<Float>(crossAxis)
        let coupled = v + SIMD3(c.x * v.y + c.y * v.z, c.x * v.x + c.z * v.z, c.y * v.x + c.z * v.y)
        return coupled * SIMD3<Float>(scale) + bias
    }

    /// The board's hard and soft iron applied to the true body-frame field.
    func ironDistort(_ field: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3<Float>(softIron.x) * field.x + SIMD3<Float>(softIron.y) * field.y + SIMD3<Float>(softIron.z) * field.z
            + SIMD3<Float>(hardIron)
    }

    /// The die temperature at `time` s, °C.
    func dieTemperature(at time: Double) -> Float { Float(temperature) + Float(temperatureRate) * Float(time) }
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
