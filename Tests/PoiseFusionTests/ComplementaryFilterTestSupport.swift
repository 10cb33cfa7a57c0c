import Testing
import PoiseFusion
import PoiseMath

/// Noiseless synthetic sensor data and helpers shared by the classic filters' tests.
enum ClassicFixture {
    static let gravity: Float = 9.81
    /// Earth field in ENU for a northern-hemisphere site: north and down, µT.
    static let field = SIMD3<Float>(0, 20, -40)

    /// What an ideal IMU at `attitude` turning at body `rate` reads.
    static func sample(_ attitude: Quaternion, rate: SIMD3<Float> = .zero, magnetic: Bool = true) -> InertialSample {
        InertialSample(accelerometer: attitude.inverseRotate(SIMD3(0, 0, gravity)),
                       gyroscope: rate,
                       magnetometer: magnetic ? attitude.inverseRotate(field) : nil)
    }

    /// Angle between two attitudes, degrees.
    static func angle(_ a: Quaternion, _ b: Quaternion) -> Float {
        let c = abs((a.normalized.components * b.normalized.components).sum())
        return 2 * _acos(min(1, c)) * 180 / .pi
    }

    /// Angle between the "up" directions (tilt only) of two attitudes, degrees.
    static func tiltAngle(_ a: Quaternion, _ b: Quaternion) -> Float {
        let ua = a.inverseRotate(SIMD3(0, 0, 1)), ub = b.inverseRotate(SIMD3(0, 0, 1))
        return _acos(max(-1, min(1, dot(ua, ub)))) * 180 / .pi
    }

    /// Yaw of an attitude (rotation about world z), radians.
    static func yaw(_ q: Quaternion) -> Float {
        let x = q.rotate(SIMD3(1, 0, 0))
        return _atan2(x.y, x.x)
    }

    static let tilted = Quaternion(axis: SIMD3<Float>(1, 2, 3) * (1 / Float(14).squareRoot()), angle: 1.0)
}

/// Deterministic pseudo-random numbers (SplitMix64) so tests are reproducible.
struct FixtureRandom {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    mutating func unit() -> Float { Float(next() >> 40) / Float(1 << 24) }
    /// Approximately normal, mean 0, standard deviation 1.
    mutating func normal() -> Float { (0..<12).reduce(Float(-6)) { s, _ in s + unit() } }
}

/// The classic filters, for tests that run against each of them.
enum ClassicFilterKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case complementary, mahony, madgwick, mekf
    var testDescription: String { rawValue }

    func make() -> any AttitudeFilter {
        switch self {
        case .complementary: ComplementaryFilter()
        case .mahony: MahonyFilter()
        case .madgwick: MadgwickFilter()
        case .mekf: MultiplicativeKalmanFilter()
        }
    }

    /// A filter of this kind restarted from `attitude` instead of the first sample's.
    func make(startingAt attitude: Quaternion) -> any AttitudeFilter {
        switch self {
        case .complementary: var f = ComplementaryFilter(); f.reset(attitude: attitude); return f
        case .mahony: var f = MahonyFilter(); f.reset(attitude: attitude); return f
        case .madgwick: var f = MadgwickFilter(); f.reset(attitude: attitude); return f
        case .mekf: var f = MultiplicativeKalmanFilter(); f.reset(attitude: attitude); return f
        }
    }
}
