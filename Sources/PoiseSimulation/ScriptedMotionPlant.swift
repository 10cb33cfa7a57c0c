import PoiseMath
import PoiseMotion

/// A `poise synth` motion as the "plant" of an attitude-only simulated run: the board is
/// carried through the script, which starts again from its end state when it finishes.
///
/// No output drives it; `advance(to:)` steps the script's exact kinematics to a time, and
/// `motion` is what the simulated MPU-9250 measures there.
public struct ScriptedMotionPlant: Sendable {
    public let script: MotionScript
    public let rate: Double
    var generator: MotionGenerator
    var offset: Double = 0
    /// The exact state at the last `advance`.
    public private(set) var current: MotionSample

    /// - Parameter rate: the script's internal step, Hz (the chip's output rate or faster).
    public init(script: MotionScript, rate: Double = 1000) throws(MotionSettingsError) {
        self.script = script
        self.rate = rate
        generator = try MotionGenerator(script: script, sampleRate: rate)
        guard let first = generator.next() else { throw MotionSettingsError("script \(script.name) is empty") }
        current = first
    }

    /// Steps the script to `time` (s); earlier times leave it where it is.
    public mutating func advance(to time: Double) {
        while current.time + offset < time {
            if let next = generator.next() {
                current = next
            } else {
                // Start again from the end state so the attitude stays continuous.
                offset += current.time + 1 / rate
                let end = current.attitude
                guard let restarted = try? MotionGenerator(script: script, sampleRate: rate, initialAttitude: end),
                      let first = restarted.first(where: { _ in true }) else { return }
                generator = restarted
                _ = generator.next()
                current = first
            }
        }
    }

    /// What an ideal IMU carried by the script measures now.
    public var motion: HeldMotion {
        HeldMotion(specificForce: current.specificForce, angularRate: current.angularRate,
                   magneticField: current.magneticField)
    }

    /// The exact body-to-ENU attitude now (the ground truth of the run).
    public var attitude: Quaternion { current.attitude }
}

/// A motion state held constant until the simulation sets the next one: how a plant that is
/// stepped by the loop presents itself to the simulated MPU-9250.
public struct HeldMotion: SimulatedMotion, Sendable {
    public var specificForce: SIMD3<Float>
    public var angularRate: SIMD3<Float>
    public var magneticField: SIMD3<Float>
    /// Rotor vibration on top, evaluated at each sample instant (none unless a quadrotor
    /// plant vibrates).
    public var vibration = RotorVibration()

    public init(specificForce: SIMD3<Float> = SIMD3(0, 0, Gravity.standard), angularRate: SIMD3<Float> = .zero,
                magneticField: SIMD3<Float> = typicalGeomagneticField) {
        self.specificForce = specificForce
        self.angularRate = angularRate
        self.magneticField = magneticField
    }

    public func state(at time: Double) -> (specificForce: SIMD3<Float>, angularRate: SIMD3<Float>, magneticField: SIMD3<Float>) {
        guard vibration.isActive else { return (specificForce, angularRate, magneticField) }
        let shake = vibration.at(time)
        return (specificForce + SIMD3<Float>(shake.specificForce), angularRate + SIMD3<Float>(shake.angularRate), magneticField)
    }
}
