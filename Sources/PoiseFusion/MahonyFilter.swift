import PoiseMath

/// Mahony's nonlinear complementary filter on SO(3) (Mahony, Hamel & Pflimlin, IEEE TAC
/// 2008), in the explicit form of the widely used reference implementation.
///
/// Each sample the attitude error is the sum of the cross products between each measured
/// direction (accelerometer; magnetometer in 9D) and the direction the current attitude
/// predicts for it. A proportional term `kp · e` and an integral term `∫ ki · e dt` are added
/// to the gyroscope rate before integrating. The integral converges to minus the gyroscope
/// bias, so `status.gyroscopeBias` reports `−∫ ki · e dt`.
///
/// In 9D the field reference is re-derived each sample from the measurement itself (its
/// horizontal part pointed at magnetic north, world +y, keeping its measured dip), so the
/// magnetometer corrects heading without needing to know the local inclination.
public struct MahonyFilter: ConvergenceTrackedFilter {
    public struct Settings: Sendable {
        /// Proportional gain, rad/s per unit direction error. Default 0.74 (BROAD's tuning).
        public var kp: Float
        /// Integral gain, rad/s² per unit direction error; 0 disables bias estimation.
        /// Default 0.0012 (BROAD's tuning).
        public var ki: Float
        /// Input screening.
        public var screen: SampleScreen

        public static let `default` = Settings(kp: 0.74, ki: 0.0012, screen: .default)

        @inlinable
        public init(kp: Float = 0.74, ki: Float = 0.0012, screen: SampleScreen = .default) {
            self.kp = kp
            self.ki = ki
            self.screen = screen
        }
    }

    public var settings: Settings
    public private(set) var attitude: Quaternion
    public internal(set) var status: FilterStatus
    /// Whether the attitude is established (lost on clipping, a stall, a failsafe).
    @usableFromInline var convergence = AttitudeConvergence()
    /// The integral feedback term, rad/s (added to the gyroscope rate).
    @usableFromInline var integral: SIMD3<Float>
    @usableFromInline var aligned: Bool

    public init(settings: Settings = .default) {
        self.settings = settings
        attitude = .identity
        status = FilterStatus(flags: [.initialising])
        integral = .zero
        aligned = false
    }

    /// Restarts from `attitude` (normalised), skipping start-up alignment; keeps the bias.
    public mutating func reset(attitude: Quaternion) {
        self.attitude = StartupAlignment.sanitised(attitude, fallback: .identity)
        aligned = true
        status.flags = []
    }

    /// The readings now arrive less `offset` (the loop's start-up bias): the integral, which
    /// converges to minus the bias, moves up by it.
    @inlinable
    public mutating func gyroscopeReadingsShift(by offset: SIMD3<Float>) { integral += offset }

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

        var rate = input.gyroscope
        if let a = input.accelerometer {
            let measuredUp = a * reciprocalSquareRoot(dot(a, a))
            var error = cross(measuredUp, attitude.inverseRotate(SIMD3(0, 0, 1)))
            if let m = input.magnetometer {
                let field = m * reciprocalSquareRoot(dot(m, m))
                let world = attitude.rotate(field)
                let horizontal = squareRoot(world.x * world.x + world.y * world.y)
                if horizontal > 1e-3 {
                    let reference = SIMD3<Float>(0, horizontal, world.z)
                    error += cross(field, attitude.inverseRotate(reference))
                    flags.insert(.magnetometerUsed)
                }
            }
            if settings.ki > 0 {
                integral += settings.ki * error * dt
            } else {
                integral = .zero
            }
            rate += settings.kp * error + integral
        }
        let next = attitude * Quaternion(rotationVector: rate * dt)
        attitude = StartupAlignment.sanitised(next, fallback: attitude)
        if !(integral * 0 == .zero) { integral = .zero }
        status.gyroscopeBias = -integral
    }
}
