import PoiseMath

/// Motor and propeller vibration on a multirotor frame: each rotor's imbalance shakes the
/// frame at its rotation frequency and that frequency's harmonics, in the rotor's plane as
/// the imbalance turns and along the thrust axis as the frame flexes, and rocks it about the
/// arms. Evaluated at any instant, so the simulated chip samples it at its own internal rate
/// and its DLPF shapes it, as a real MPU-9250's does.
///
/// Harmonic n has 1/n of the fundamental's amplitude. Phases advance at each rotor's speed
/// from a reference time (the plant's last step), so the chip may sample between steps.
public struct RotorVibration: Sendable, Equatable {
    /// When `phases` hold, s.
    public var referenceTime = 0.0
    /// Each rotor's angle at `referenceTime`, rad.
    public var phases = SIMD4<Double>.zero
    /// Each rotor's speed, rad/s.
    public var speeds = SIMD4<Double>.zero
    /// Spin directions (+1 counter-clockwise seen from above).
    public var spins = SIMD4<Double>(1, 1, -1, -1)
    /// Each rotor's accelerometer amplitude (m/s²) and gyroscope amplitude (rad/s) now.
    public var acceleration = SIMD4<Double>.zero
    public var rate = SIMD4<Double>.zero
    public var harmonics = 1

    public init() {}

    /// Whether it shakes at all.
    public var isActive: Bool { acceleration != .zero || rate != .zero }

    /// The frame's vibration at `time` (s): specific force (m/s²) and angular rate (rad/s),
    /// body frame.
    public func at(_ time: Double) -> (specificForce: SIMD3<Double>, angularRate: SIMD3<Double>) {
        var force = SIMD3<Double>.zero, turn = SIMD3<Double>.zero
        let dt = time - referenceTime
        for rotor in 0..<4 where acceleration[rotor] != 0 || rate[rotor] != 0 {
            let angle = phases[rotor] + speeds[rotor] * dt
            for n in 1...max(1, harmonics) {
                let theta = (Double(n) * angle).truncatingRemainder(dividingBy: 2 * .pi)
                let c = _cosD(theta), s = spins[rotor] * _sinD(theta)
                let a = acceleration[rotor] / Double(n), w = rate[rotor] / Double(n)
                force += SIMD3(a * c, a * s, a * _sinD(theta + 0.7))
                turn += SIMD3(w * s, w * c, 0.2 * w * _cosD(theta + 0.7))
            }
        }
        return (force, turn)
    }
}
