/// Calibration the driver applies to every sample, in the body frame.
///
/// Plain numbers so the integrator can save and load them as configuration values:
/// `gyro = raw − gyroscopeBias`; `accel = (raw − accelerometerOffset) / accelerometerScale`;
/// `mag = magnetometerSoftIron · (raw − magnetometerHardIron)`.
@frozen
public struct SensorCalibration: Sendable, Equatable {
    /// rad/s.
    public var gyroscopeBias: SIMD3<Float>
    /// m/s².
    public var accelerometerOffset: SIMD3<Float>
    /// Dimensionless gain per axis (1 = exact).
    public var accelerometerScale: SIMD3<Float>
    /// µT.
    public var magnetometerHardIron: SIMD3<Float>
    /// Rows of the symmetric soft-iron correction matrix.
    public var magnetometerSoftIron: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)

    public init(gyroscopeBias: SIMD3<Float> = .zero, accelerometerOffset: SIMD3<Float> = .zero,
                accelerometerScale: SIMD3<Float> = .one, magnetometerHardIron: SIMD3<Float> = .zero,
                magnetometerSoftIron: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)
                    = (SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))) {
        self.gyroscopeBias = gyroscopeBias
        self.accelerometerOffset = accelerometerOffset
        self.accelerometerScale = accelerometerScale
        self.magnetometerHardIron = magnetometerHardIron
        self.magnetometerSoftIron = magnetometerSoftIron
    }

    /// No correction.
    public static let identity = SensorCalibration()

    @inlinable
    public func correctGyroscope(_ v: SIMD3<Float>) -> SIMD3<Float> { v - gyroscopeBias }

    @inlinable
    public func correctAccelerometer(_ v: SIMD3<Float>) -> SIMD3<Float> { (v - accelerometerOffset) / accelerometerScale }

    @inlinable
    public func correctMagnetometer(_ v: SIMD3<Float>) -> SIMD3<Float> {
        let d = v - magnetometerHardIron
        let m = magnetometerSoftIron
        return SIMD3((m.0 * d).sum(), (m.1 * d).sum(), (m.2 * d).sum())
    }

    public static func == (a: SensorCalibration, b: SensorCalibration) -> Bool {
        a.gyroscopeBias == b.gyroscopeBias && a.accelerometerOffset == b.accelerometerOffset
            && a.accelerometerScale == b.accelerometerScale && a.magnetometerHardIron == b.magnetometerHardIron
            && a.magnetometerSoftIron.0 == b.magnetometerSoftIron.0 && a.magnetometerSoftIron.1 == b.magnetometerSoftIron.1
            && a.magnetometerSoftIron.2 == b.magnetometerSoftIron.2
    }
}
