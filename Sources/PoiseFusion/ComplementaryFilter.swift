import PoiseMath

/// The simplest useful attitude filter: integrate the gyroscope, and pull the result a little
/// towards the attitude the accelerometer (and magnetometer) alone imply, every sample.
///
/// The pull is a first-order low-pass on the measured attitude with time constant
/// `Settings.timeConstant`: each sample moves `dt / (timeConstant + dt)` of the way (by slerp)
/// from the gyro-propagated attitude to the measured one. In 6D only the tilt is pulled
/// (the correction is a rotation about a horizontal axis), so heading comes from the gyro.
///
/// `timeConstant = 0` is the degenerate accelerometer-only case: the tilt is exactly the
/// accelerometer's (roll = atan2(a_y, a_z), pitch from atan2 of the remaining component) on
/// every sample, and in 9D the heading is exactly the magnetometer's. No gyro smoothing.
///
/// The filter starts from the first valid accelerometer (and magnetometer) sample's attitude.
/// It does not estimate the gyroscope bias.
public struct ComplementaryFilter: ConvergenceTrackedFilter {
    public struct Settings: Sendable {
        /// Time constant of the pull towards the accelerometer/magnetometer attitude, s.
        /// Larger trusts the gyroscope longer. 0 means "use the measured attitude as is".
        public var timeConstant: Float
        /// Input screening.
        public var screen: SampleScreen

        public static let `default` = Settings(timeConstant: 1.0, screen: .default)

        @inlinable
        public init(timeConstant: Float = 1.0, screen: SampleScreen = .default) {
            self.timeConstant = timeConstant
            self.screen = screen
        }
    }

    public var settings: Settings
    public private(set) var attitude: Quaternion
    public internal(set) var status: FilterStatus
    /// Whether the attitude is established (lost on clipping, a stall, a failsafe).
    @usableFromInline var convergence = AttitudeConvergence()
    /// False until the first valid accelerometer sample has set the attitude.
    @usableFromInline var aligned: Bool

    public init(settings: Settings = .default) {
        self.settings = settings
        attitude = .identity
        status = FilterStatus(flags: [.initialising])
        aligned = false
    }

    /// Restarts from `attitude` (normalised), skipping start-up alignment.
    public mutating func reset(attitude: Quaternion) {
        self.attitude = StartupAlignment.sanitised(attitude, fallback: .identity)
        aligned = true
        status.flags = []
    }

    #if !DEBUG  // the checker needs whole-module builds to see same-module callees
    @_noAllocation @_noLocks
    #endif
    public mutating func update(_ sample: InertialSample, dt: Float) {
        var flags = FilterFlags(rawValue: 0)
        let input = settings.screen.screen(sample, dt: dt, status: &status, flags: &flags)
        defer { status.flags = convergence.isConverged ? flags : flags.union(.notConverged) }
        guard input.usable else { return }

        if !aligned {
            if let start = StartupAlignment.firstAttitude(input, flags: &flags) {
                attitude = start
                aligned = true
            }
            return
        }

        let predicted = StartupAlignment.sanitised(
            attitude * Quaternion(rotationVector: input.gyroscope * dt), fallback: attitude)
        guard let a = input.accelerometer else {
            attitude = predicted
            return
        }
        let tau = settings.timeConstant
        let fraction: Float = tau > 0 && tau.isFinite ? dt / (tau + dt) : 1
        var next = predicted
        if let m = input.magnetometer,
           let measured = StartupAlignment.northReferenced(accelerometer: a, magnetometer: m) {
            // Slerp in the body frame from the prediction towards the measured attitude.
            if fraction >= 1 {
                next = measured
            } else {
                let error = predicted.conjugate * measured
                let step = StartupAlignment.rotationVector(error) * fraction
                next = predicted * Quaternion(rotationVector: step)
            }
            flags.insert(.magnetometerUsed)
        } else {
            // Tilt only: rotate about a horizontal world axis so measured "up" meets +z.
            let up = predicted.rotate(a * reciprocalSquareRoot(dot(a, a)))
            let correction = StartupAlignment.shortestArc(from: up, to: SIMD3(0, 0, 1))
            if fraction >= 1 {
                next = correction * predicted
            } else {
                let step = StartupAlignment.rotationVector(correction) * fraction
                next = Quaternion(rotationVector: step) * predicted
            }
        }
        attitude = StartupAlignment.sanitised(next, fallback: predicted)
    }
}
