import PoiseMath

/// A multiplicative extended Kalman filter (MEKF) for attitude and gyroscope bias
/// (Lefferts, Markley & Shuster 1982; Markley 2003).
///
/// The state is the attitude quaternion and the gyroscope bias; the filter's covariance is
/// over a 6-D error state: a small rotation δθ in the body frame (`q_true = q ⊗ exp(δθ)`) and
/// a bias error δb. The gyroscope propagates the attitude; measurements are fused as
/// sequential scalar updates, so there is no matrix inverse and the 6 × 6 covariance lives in
/// six SIMD rows.
///
/// - Accelerometer: the measured direction of "up" against the predicted one, correcting
///   tilt only (gravity says nothing about heading, and letting the large heading variance
///   take part lets linearisation errors turn it). Its noise grows with the deviation of
///   `|a|` from 1 g (linear acceleration), and samples off by more than
///   `accelerationRejection` are not used (flag `.accelerationRejected`).
/// - Magnetometer (9D): heading only — the angle between the field's horizontal part and
///   north — so a disturbed field can never tilt the estimate, and it never corrects the bias
///   (a Schmidt "consider" update: magnetometer errors are too slow and structured to be
///   trusted for that). Its noise includes the heading error a tilt error causes through
///   the field's dip. Gain restrictions use the Joseph-form covariance update, which stays
///   consistent for a suboptimal gain. The field's norm and dip are
///   compared with a reference learned at start-up; disturbed samples are skipped (flag
///   `.magneticDisturbance`), and after `magneticRecoveryTime` of continuous disturbance the
///   reference is re-learned (the surroundings have changed, e.g. the robot moved indoors).
/// - Rest (flag `.atRest`): when gyroscope and accelerometer have been steady for
///   `restTime`, the gyroscope is fused as a measurement of the bias itself. This is the
///   only update that corrects the bias (the others only "consider" it), so a sensor that
///   never rests keeps its initial bias estimate and a growing attitude uncertainty.
///
/// Starts from the first valid accelerometer (+ magnetometer) sample's attitude.
public struct MultiplicativeKalmanFilter: ConvergenceTrackedFilter {
    public struct Settings: Sendable {
        /// Gyroscope white noise, rad/s (standard deviation of one sample). Default 0.005.
        public var gyroscopeNoise: Float
        /// Gyroscope bias random walk, rad/s² (the bias's standard deviation grows by this
        /// times √(t·s)). Default 1e-5.
        public var gyroscopeBiasNoise: Float
        /// Accelerometer noise including small vibration, m/s² per axis. Default 0.5.
        public var accelerometerNoise: Float
        /// Magnetometer noise, µT per axis. Default 2.
        public var magnetometerNoise: Float
        /// Accelerometer samples whose norm differs from 1 g by more than this are not used,
        /// m/s². Default 2.5.
        public var accelerationRejection: Float
        /// A field whose norm differs from the reference by more than this fraction is
        /// treated as disturbed. Default 0.1.
        public var magneticNormTolerance: Float
        /// A field whose dip differs from the reference by more than this is treated as
        /// disturbed, rad. Default 10° (π/18).
        public var magneticDipTolerance: Float
        /// Continuous disturbance after which the field reference is re-learned, s. Default 30.
        public var magneticRecoveryTime: Float
        /// Initial one-sigma bias uncertainty, rad/s. Default 0.02 (about 1 °/s).
        public var initialBiasUncertainty: Float
        /// How long the sensor must be steady before it counts as at rest, s. Default 1.
        public var restTime: Float
        /// Input screening.
        public var screen: SampleScreen

        public static let `default` = Settings()

        @inlinable
        public init(gyroscopeNoise: Float = 0.005, gyroscopeBiasNoise: Float = 1e-5,
                    accelerometerNoise: Float = 0.5, magnetometerNoise: Float = 2.0,
                    accelerationRejection: Float = 2.5, magneticNormTolerance: Float = 0.1,
                    magneticDipTolerance: Float = 10 * .pi / 180, magneticRecoveryTime: Float = 30,
                    initialBiasUncertainty: Float = 0.02, restTime: Float = 1,
                    screen: SampleScreen = .default) {
            self.gyroscopeNoise = gyroscopeNoise
            self.gyroscopeBiasNoise = gyroscopeBiasNoise
            self.accelerometerNoise = accelerometerNoise
            self.magnetometerNoise = magnetometerNoise
            self.accelerationRejection = accelerationRejection
            self.magneticNormTolerance = magneticNormTolerance
            self.magneticDipTolerance = magneticDipTolerance
            self.magneticRecoveryTime = magneticRecoveryTime
            self.initialBiasUncertainty = initialBiasUncertainty
            self.restTime = restTime
            self.screen = screen
        }
    }

    /// Standard gravity, m/s².
    @usableFromInline static var gravity: Float { 9.80665 }
    /// Initial attitude variance after alignment, rad².
    @usableFromInline static var initialAttitudeVariance: Float { 0.01 }

    public var settings: Settings
    public private(set) var attitude: Quaternion
    public internal(set) var status: FilterStatus
    /// Whether the attitude is established (lost on clipping, a stall, a failsafe).
    @usableFromInline var convergence = AttitudeConvergence()
    @usableFromInline var bias: SIMD3<Float>
    @usableFromInline var covariance: ErrorCovariance
    @usableFromInline var aligned: Bool
    /// Magnetic reference: norm (µT) and sine of the dip; norm 0 = not yet learned.
    @usableFromInline var fieldNorm: Float
    @usableFromInline var fieldDipSine: Float
    @usableFromInline var disturbedTime: Float
    /// Rest detection: low-passed gyroscope and accelerometer, and time steady so far.
    @usableFromInline var gyroscopeMean: SIMD3<Float>
    @usableFromInline var accelerometerMean: SIMD3<Float>
    @usableFromInline var steadyTime: Float

    public init(settings: Settings = .default) {
        self.settings = settings
        attitude = .identity
        let b0 = settings.initialBiasUncertainty
        status = FilterStatus(flags: [.initialising], gyroscopeBiasUncertainty: b0)
        bias = .zero
        covariance = ErrorCovariance(attitudeVariance: Self.initialAttitudeVariance, biasVariance: b0 * b0)
        aligned = false
        fieldNorm = 0
        fieldDipSine = 0
        disturbedTime = 0
        gyroscopeMean = .zero
        accelerometerMean = .zero
        steadyTime = 0
    }

    /// Restarts from `attitude` (normalised) with the initial covariance; keeps the bias.
    public mutating func reset(attitude: Quaternion) {
        self.attitude = StartupAlignment.sanitised(attitude, fallback: .identity)
        aligned = true
        let b0 = settings.initialBiasUncertainty
        covariance = ErrorCovariance(attitudeVariance: Self.initialAttitudeVariance, biasVariance: b0 * b0)
        status.flags = []
    }

    /// The readings now arrive less `offset` (the loop's start-up bias): so does the bias
    /// state.
    @inlinable
    public mutating func gyroscopeReadingsShift(by offset: SIMD3<Float>) { bias -= offset }

    #if !DEBUG  // the checker needs whole-module builds to see same-module callees
    @_noAllocation @_noLocks
    #endif
    public mutating func update(_ sample: InertialSample, dt: Float) {
        var flags = FilterFlags(rawValue: 0)
        let input = settings.screen.screen(sample, dt: dt, status: &status, flags: &flags)
        defer { status.flags = convergence.isConverged ? flags : flags.union(.notConverged) }
        guard input.usable else { return }

        if !aligned {
            if let start = StartupAlignment.firstAttitude(input, flags: &flags), let a = input.accelerometer {
                attitude = start
                aligned = true
                gyroscopeMean = input.gyroscope
                accelerometerMean = a
                if let m = input.magnetometer { learnField(m, up: a) }
            }
            return
        }

        // Propagation.
        let rate = input.gyroscope - bias
        let step = Quaternion(rotationVector: rate * dt)
        attitude = StartupAlignment.sanitised(attitude * step, fallback: attitude)
        let sg = settings.gyroscopeNoise * dt
        covariance.propagate(step, dt: dt, attitudeNoise: sg * sg,
                             biasNoise: settings.gyroscopeBiasNoise * settings.gyroscopeBiasNoise * dt)

        var correction = SIMD8<Float>(repeating: 0)
        let up = attitude.inverseRotate(SIMD3(0, 0, 1))

        if let a = input.accelerometer {
            if detectRest(gyroscope: input.gyroscope, accelerometer: a, dt: dt) {
                flags.insert(.atRest)
                // At rest the gyroscope reads its bias: z = b + noise, H = [0, I].
                let r = settings.gyroscopeNoise * settings.gyroscopeNoise
                let residual = input.gyroscope - bias
                _ = covariance.update(h: SIMD8(0, 0, 0, 1, 0, 0, 0, 0), innovation: residual.x, variance: r, correction: &correction)
                _ = covariance.update(h: SIMD8(0, 0, 0, 0, 1, 0, 0, 0), innovation: residual.y, variance: r, correction: &correction)
                _ = covariance.update(h: SIMD8(0, 0, 0, 0, 0, 1, 0, 0), innovation: residual.z, variance: r, correction: &correction)
            }
            let norm = squareRoot(dot(a, a))
            let excess = abs(norm - Self.gravity)
            if excess <= settings.accelerationRejection {
                let measured = a / norm
                let residual = measured - up
                // Noise in direction units: sensor noise plus the linear acceleration that
                // the norm reveals (a lower bound on what it hides).
                let sigma = (settings.accelerometerNoise + 2 * excess) / Self.gravity
                let r = sigma * sigma
                // Rows of [up×]: d(up)/dδθ.
                // Tilt only: the heading is unobservable from gravity, and letting the (large,
                // uncorrelated) heading variance take part makes linearisation errors turn it.
                // The bias is only considered: linear acceleration leaks into tilt residuals
                // and from there into a bias estimate; the bias is learned at rest instead.
                _ = covariance.constrainedUpdate(h: SIMD8(0, -up.z, up.y, 0, 0, 0, 0, 0), innovation: residual.x, variance: r,
                                                 axis: up, tiltOnly: true, updatesBias: false, correction: &correction)
                _ = covariance.constrainedUpdate(h: SIMD8(up.z, 0, -up.x, 0, 0, 0, 0, 0), innovation: residual.y, variance: r,
                                                 axis: up, tiltOnly: true, updatesBias: false, correction: &correction)
                _ = covariance.constrainedUpdate(h: SIMD8(-up.y, up.x, 0, 0, 0, 0, 0, 0), innovation: residual.z, variance: r,
                                                 axis: up, tiltOnly: true, updatesBias: false, correction: &correction)
            } else {
                flags.insert(.accelerationRejected)
            }
        }

        if let m = input.magnetometer {
            if fieldNorm == 0 { learnField(m, up: up) }
            let norm = squareRoot(dot(m, m))
            let dipSine = -dot(m, up) / norm
            let dipError = abs(_asin(max(-1, min(1, dipSine))) - _asin(max(-1, min(1, fieldDipSine))))
            let disturbed = abs(norm - fieldNorm) > settings.magneticNormTolerance * fieldNorm
                || dipError > settings.magneticDipTolerance
            let world = attitude.rotate(m)
            let horizontal = squareRoot(world.x * world.x + world.y * world.y)
            if disturbed {
                flags.insert(.magneticDisturbance)
                disturbedTime += dt
                if disturbedTime > settings.magneticRecoveryTime {
                    learnField(m, up: up)
                    disturbedTime = 0
                }
            } else if horizontal > 1 {
                disturbedTime = 0
                // Heading error: the turn about world z that takes the field's horizontal part
                // onto north (+y). Its effect on the body-frame error is along `up`.
                let heading = _atan2(world.x, world.y)
                // A tilt error δ moves the projected field's heading by up to δ·tan(dip).
                let d = covariance.diagonal
                // The filter's own tilt variance is optimistic in motion; never assume the tilt
                // better than one accelerometer sample can tell it.
                let floorTilt = settings.accelerometerNoise / Self.gravity
                let tiltVariance = max((d[0] + d[1] + d[2]) / 3, floorTilt * floorTilt)
                let slope = abs(world.z) / horizontal
                let sigma2 = (settings.magnetometerNoise / horizontal) * (settings.magnetometerNoise / horizontal)
                    + slope * slope * tiltVariance
                let sigma = squareRoot(sigma2)
                if covariance.constrainedUpdate(h: SIMD8(up.x, up.y, up.z, 0, 0, 0, 0, 0), innovation: heading,
                                                variance: sigma * sigma, axis: up, tiltOnly: false,
                                                updatesBias: false, correction: &correction) {
                    flags.insert(.magnetometerUsed)
                }
            }
        }

        // Inject the correction into the nominal state.
        let dTheta = SIMD3(correction[0], correction[1], correction[2])
        let dBias = SIMD3(correction[3], correction[4], correction[5])
        if (correction * 0) == SIMD8<Float>(repeating: 0) {
            attitude = StartupAlignment.sanitised(attitude * Quaternion(rotationVector: dTheta), fallback: attitude)
            bias += dBias
        }
        let b0 = settings.initialBiasUncertainty
        let ceiling = max(b0 * b0, 1e-6)
        if !covariance.condition(floor: 1e-12, attitudeCeiling: 4, biasCeiling: ceiling) {
            covariance = ErrorCovariance(attitudeVariance: Self.initialAttitudeVariance, biasVariance: b0 * b0)
        }
        if !((bias * 0) == SIMD3<Float>(repeating: 0)) { bias = .zero }
        let d = covariance.diagonal
        status.gyroscopeBias = bias
        status.gyroscopeBiasUncertainty = squareRoot(max(d[3], max(d[4], d[5])))
    }

    /// Remembers the field's norm and dip (relative to body `up`) as the undisturbed reference.
    @inlinable
    mutating func learnField(_ m: SIMD3<Float>, up: SIMD3<Float>) {
        let norm = squareRoot(dot(m, m))
        let upNorm = squareRoot(dot(up, up))
        guard norm > 0, upNorm > 0 else { return }
        fieldNorm = norm
        fieldDipSine = -dot(m, up) / (norm * upNorm)
    }

    /// True once gyroscope and accelerometer have stayed near their short-term means (and the
    /// rotation rate near the bias) for `restTime`.
    @inlinable
    mutating func detectRest(gyroscope g: SIMD3<Float>, accelerometer a: SIMD3<Float>, dt: Float) -> Bool {
        let alpha = min(1, dt / 0.5)
        gyroscopeMean += alpha * (g - gyroscopeMean)
        accelerometerMean += alpha * (a - accelerometerMean)
        let dg = g - gyroscopeMean
        let da = a - accelerometerMean
        let moving = gyroscopeMean - bias
        let steady = dot(dg, dg) < 0.035 * 0.035 && dot(da, da) < 0.5 * 0.5 && dot(moving, moving) < 0.035 * 0.035
        steadyTime = steady ? steadyTime + dt : 0
        return steadyTime >= settings.restTime
    }
}
