import PoiseMath

/// Poise's most accurate attitude filter: separate inclination and heading corrections, rest
/// detection, gyroscope-bias estimation at rest and in motion, and magnetic-disturbance
/// rejection.
///
/// The design follows the ideas of VQF (D. Laidig, T. Seel, "VQF: Highly accurate IMU
/// orientation estimation with bias estimation and magnetic disturbance rejection",
/// Information Fusion 91, 2023); the implementation is Poise's own:
///
/// 1. The bias-corrected gyroscope is integrated into `gyroscopeAttitude`, which maps the body
///    to an "almost inertial" frame I that drifts only slowly.
/// 2. The accelerometer, rotated into I, is low-pass filtered there (time constant
///    `accelerometerTimeConstant`): rotation does not smear the filtered vector, linear
///    acceleration averages out. `inclinationCorrection` turns the filtered vector upright.
/// 3. The magnetometer, brought forward by its learned latency behind the gyroscope and seen
///    in that heading-free earth frame, turns `headingCorrection` about the vertical only
///    (time constant `magnetometerTimeConstant`), so a bad field can never tilt the estimate.
///    Norm and dip are checked against a tracked reference first, and once the heading has
///    settled, a reading's disagreement counts for at most `magneticHeadingThreshold` (more
///    after fast turns, by what the gyroscope may have drifted).
/// 4. At rest the filtered gyroscope measures the bias directly; in motion the rate at which
///    the filtered gravity drifts in I measures the horizontal (world x/y) part of the rate
///    error, from which the same small Kalman filter (at 25 Hz) also learns each axis's
///    scale-factor error; fast rotation weakens the motion measurement, since axis
///    misalignment then looks like bias.
/// 5. Every accelerometer sample enters the low-pass, impacts included: a tap and its rebound
///    average to nothing there, and the sharp stop of a gently pushed stroke still balances
///    the push. An optional gate (`accelerationRejectionThreshold`, off by default) holds
///    impacts (specific force far from the expected gravity) out for a moment and lets only
///    their velocity change, net of its counterpart, enter afterwards.
///    At rest, once the body is still (there is no linear acceleration then), the filtered
///    gravity restarts from the rest mean, forgetting the motion before it;
///    magnetometer readings are weighted by the time since the last fresh one, so a held
///    (repeated) value is not counted twice.
/// 6. A turning body's sustained acceleration is ω × v with v its velocity, fixed in the
///    body: the filter learns v while the body turns and takes out of the low-pass's input the
///    share of ω × v that the low-pass would let through and that gyroscope errors could not
///    equally explain (see `PoiseFilter+Turn.swift`).
/// 7. After gyroscope clipping, a stall or a failsafe the attitude is `notConverged` until
///    the accelerometer agrees with it near rest; meanwhile near-rest samples re-align the
///    filtered gravity at once (see `PoiseFilter+Convergence.swift`).
///
/// Start-up: the filters average their first inputs (for τ), so the first sample already
/// gives a level attitude and a heading, refined as more arrive (`.initialising` meanwhile).
/// Numerics: state is Float; the low-pass filters use a well-conditioned state-variable form
/// and the bias covariance is kept in (°/s)², so nothing depends on tiny differences.
///
/// `attitude` = `headingCorrection ⊗ inclinationCorrection ⊗ gyroscopeAttitude`.
/// State is fixed-size; `update` neither allocates nor locks.
@frozen
public struct PoiseFilter: AttitudeFilter {
    public let settings: Settings
    /// Body → I, the strapdown integral of the bias-corrected gyroscope.
    @usableFromInline var gyroscopeAttitude: Quaternion
    /// I → heading-free earth frame (tilt only, in effect).
    @usableFromInline var inclinationCorrection: Quaternion
    /// Heading-free earth frame → ENU (a rotation about z; identity in 6D).
    @usableFromInline var headingCorrection: Quaternion
    /// `inclinationCorrection ⊗ gyroscopeAttitude`: body → heading-free earth frame.
    @usableFromInline var earthAttitude: Quaternion
    /// `headingCorrection ⊗ earthAttitude`, formed once per update so that reading the
    /// attitude (every tick, and often several times) is a load, not a product.
    @usableFromInline var output: Quaternion
    /// Accelerometer in I, low-pass filtered; its rate measures the drift of I.
    @usableFromInline var accelerationFilter: PoiseFilterLowPass<SIMD3<Float>>
    /// Rows x and y of the body → earth rotation and their products with the bias estimate,
    /// filtered like the acceleration so that the motion bias measurement compares like with
    /// like.
    @usableFromInline var rotationFilter: PoiseFilterLowPass<SIMD16<Float>>
    @usableFromInline var rest: PoiseFilterRestDetector
    @usableFromInline var biasEstimator: PoiseFilterBiasEstimator
    @usableFromInline var magnetic: PoiseFilterMagneticDetector
    /// Offset of a magnet carried with the sensor, subtracted from every reading.
    @usableFromInline var hardIron: HardIronEstimator
    /// How much older a magnetometer reading is than the gyroscope's.
    @usableFromInline var magnetometerLatency: MagnetometerLatencyEstimator
    /// Magnetometer samples used so far (for the start-up heading average).
    @usableFromInline var magneticSamples: Float
    /// How far the gyroscope may have turned the heading since the magnetometer last
    /// corrected it, rad: the scale-factor uncertainty times the angle turned, decaying as
    /// corrections are applied.
    @usableFromInline var headingDrift: Float = 0
    /// Norm of gravity as measured at rest, m/s².
    @usableFromInline var gravity: Float
    /// The last magnetometer reading, µT.
    @usableFromInline var lastMagnetometer: SIMD3<Float>
    /// Time since that reading, s.
    @usableFromInline var magnetometerElapsed: Float
    /// Time since the last bias Kalman filter step, s.
    @usableFromInline var biasElapsed: Float
    /// Time the accelerometer has been rejected without interruption, s.
    @usableFromInline var accelerationRejectionTime: Float
    /// Share of recent samples the acceleration test would have left out (a 1 s leaky
    /// average): impacts are rare, so a large share means sustained motion, whose
    /// accelerations the inertial low-pass averages to zero only if every sample goes in.
    @usableFromInline var accelerationRejectionShare: Float = 0
    /// Velocity change the left-out samples carried beyond the expected gravity, m/s in I:
    /// handed to the low-pass with the next sample it takes, so that what it averages keeps
    /// the integral of the acceleration (see `updateInclination`).
    @usableFromInline var heldVelocityChange = SIMD3<Float>(0, 0, 0)
    /// Whether `heldVelocityChange` waits to be handed over (a flag: cheaper than a vector test).
    @usableFromInline var holdsVelocityChange = false
    /// The bias-corrected angular rate of the previous sample, rad/s, for the angular
    /// acceleration of the lever-arm compensation (kept only when `settings.leverArm` is set).
    @usableFromInline var previousRate = SIMD3<Float>(0, 0, 0)
    /// `settings.leverArm` is not zero (tested once here rather than per sample).
    @usableFromInline let compensatesLeverArm: Bool
    /// The attitude is established and there is no lever arm: the sample takes the common
    /// inclination path (`!compensatesLeverArm && convergence.isConverged`, kept up to date by
    /// `loseConvergence` and `establish`, so the sample tests one flag instead of both).
    @usableFromInline var isOrdinary: Bool
    @usableFromInline var flags: FilterFlags
    @usableFromInline var rejectedSamples: UInt32
    /// Whether the attitude is established (one Float; the re-alignment counts its samples in
    /// the inertial low-pass's idle start-up count).
    @usableFromInline var convergence = AttitudeConvergence()
    /// `1 / magnetometerTimeConstant`, 1/s.
    @usableFromInline let inverseMagnetometerTimeConstant: Float
    /// Bias measurement variances times their correlation time, (°/s)²·s (see `init`).
    @usableFromInline let motionVarianceTime: Float
    @usableFromInline let restVarianceTime: Float
    /// (°/s)²·s of motion bias measurement variance per (m/s²)² of sustained linear
    /// acceleration: 1/(g² τ) in degrees (see `sustainedAccelerationVarianceTime`).
    @usableFromInline let accelerationVarianceScale: Float
    // Last, so that the fields the common sample touches keep their places.
    /// The inertial low-pass's rate at the last bias step, m/s³ (for the mean input over a step).
    @usableFromInline var previousFilterRate = SIMD3<Float>(0, 0, 0)
    /// Sustained linear acceleration across the filtered gravity, m/s² in I: the mean specific
    /// force of each bias step less the filtered gravity, low-pass filtered over
    /// `sustainedAccelerationTime` (see `updateBias`).
    @usableFromInline var sustainedAcceleration = SIMD3<Float>(0, 0, 0)
    /// Velocity of the body in its own frame, m/s, as far as turning shows it: the sustained
    /// acceleration of a turning body is ω × v (see `compensateTurn`).
    @usableFromInline var bodyVelocity = SIMD3<Float>(0, 0, 0)
    /// The body rate averaged over `bodyVelocityTimeConstant`, rad/s, body frame.
    @usableFromInline var meanBodyRate = SIMD3<Float>(0, 0, 0)
    /// The acceleration last taken out of the inertial low-pass's input, m/s² in I.
    @usableFromInline var turnCompensation = SIMD3<Float>(0, 0, 0)
    /// Time since the last turn compensation step, s.
    @usableFromInline var turnElapsed: Float = 0
    /// The mean specific force across the filtered gravity over each bias step, m/s² in I
    /// (`sustainedAccelerationVarianceTime`) times its length, summed since the last turn step.
    @usableFromInline var turnResidual = SIMD3<Float>(0, 0, 0)

    @inlinable
    public init(settings: Settings) {
        self.settings = settings
        compensatesLeverArm = settings.leverArm != SIMD3(0, 0, 0)
        isOrdinary = !compensatesLeverArm
        gyroscopeAttitude = .identity
        inclinationCorrection = .identity
        headingCorrection = .identity
        earthAttitude = .identity
        output = .identity
        accelerationFilter = PoiseFilterLowPass(timeConstant: settings.accelerometerTimeConstant)
        rotationFilter = PoiseFilterLowPass(timeConstant: settings.accelerometerTimeConstant)
        rest = PoiseFilterRestDetector(settings: settings)
        biasEstimator = PoiseFilterBiasEstimator(
            initialUncertainty: settings.biasInitialUncertainty,
            forgettingTime: settings.biasForgettingTime, limit: settings.biasLimit,
            scaleUncertainty: settings.gyroscopeScaleUncertainty)
        magnetic = PoiseFilterMagneticDetector()
        hardIron = HardIronEstimator(enabled: settings.hardIronEstimation,
                                     timeConstant: settings.hardIronTimeConstant,
                                     minimumImprovement: settings.hardIronMinimumImprovement,
                                     maximumResidual: settings.hardIronMaximumResidual)
        magnetometerLatency = MagnetometerLatencyEstimator(
            latency: settings.magnetometerLatency, enabled: settings.magnetometerLatencyEstimation)
        magneticSamples = 0
        gravity = 9.81
        accelerationRejectionTime = 0
        accelerationRejectionShare = 0
        biasElapsed = 0
        lastMagnetometer = SIMD3(0, 0, 0)
        magnetometerElapsed = 0
        flags = .initialising
        rejectedSamples = 0
        inverseMagnetometerTimeConstant = 1 / max(settings.magnetometerTimeConstant, 1e-3)
        let degrees: Float = 180 / .pi
        // A measurement correlated over time T carries, per sample of length dt, the
        // information of an independent one with variance σ²·T/dt.
        let motionSigma = settings.biasMotionUncertainty * degrees
        motionVarianceTime = motionSigma * motionSigma * accelerationFilter.timeConstant
        let restSigma = settings.biasRestUncertainty * degrees
        restVarianceTime = restSigma * restSigma * rest.timeConstant
        accelerationVarianceScale = degrees * degrees
            / (Self.standardGravity * Self.standardGravity * accelerationFilter.timeConstant)
    }

    /// A filter with the default settings.
    public init() { self.init(settings: .default) }

    /// Body-to-world attitude (ENU; heading arbitrary but steady in 6D). Stored by `update`.
    @inlinable
    public var attitude: Quaternion { output }

    /// Flags of the last update, bias and scale estimates, rejected-sample count, hard-iron
    /// offset and magnetometer latency.
    @inlinable
    public var status: FilterStatus {
        FilterStatus(flags: headingIsUnverified ? flags.union(.headingUnverified) : flags,
                     gyroscopeBias: biasEstimator.bias,
                     gyroscopeBiasUncertainty: biasEstimator.uncertainty,
                     rejectedSamples: rejectedSamples, magnetometerOffset: hardIron.offset,
                     gyroscopeScale: biasEstimator.scale,
                     magnetometerLatency: magnetometerLatency.latency)
    }

    /// Current gyroscope bias estimate, rad/s.
    @inlinable public var gyroscopeBias: SIMD3<Float> { biasEstimator.bias }

    #if DEBUG
    /// Fuses one sample taken `dt` seconds after the previous one.
    // Debug builds compile file by file, and the performance checker then rejects every call
    // into another file; release builds (whole module) check `update` as annotated below.
    @inlinable
    public mutating func update(_ sample: InertialSample, dt: Float) { fuse(sample, dt: dt) }
    #else
    /// Fuses one sample taken `dt` seconds after the previous one.
    @inlinable
    @_noAllocation @_noLocks
    public mutating func update(_ sample: InertialSample, dt: Float) { fuse(sample, dt: dt) }
    #endif

    /// The body of `update`. Emitted only where it is inlined: as a function of its own, with
    /// the same body as `update`, the optimiser merged the two and every update paid a jump
    /// through a second frame.
    @_alwaysEmitIntoClient @inline(__always)
    mutating func fuse(_ sample: InertialSample, dt: Float) {
        // The verdict's flags, not a screened copy of the sample: optionals in a returned
        // struct are repacked through integer registers on every update.
        let verdict = settings.screen.verdict(sample, dt: dt)
        let gyroscope = sample.gyroscope
        var usable = verdict.usable, rejected = verdict.rejected
        // An angular rate beyond any gyroscope's range is a glitch: integrating it would
        // throw the attitude away.
        let rateLimit = settings.maximumAngularRate
        if usable, dot(gyroscope, gyroscope) > rateLimit * rateLimit {
            usable = false
            rejected = true
        }
        var newFlags = FilterFlags(rawValue: 0)
        if rejected {
            rejectedSamples &+= 1
            newFlags.insert(.inputRejected)
        }
        guard usable else {
            flags = newFlags.union(flags.intersection(Self.persistentFlags))
            return
        }

        // 1. Strapdown integration into I.
        let rate = biasEstimator.corrected(gyroscope)
        gyroscopeAttitude = Self.renormalized(gyroscopeAttitude * Self.rotation(rate * dt))

        // 2. Inclination from the accelerometer filtered in I; bias estimation.
        if verdict.accelerometer {
            // One test: the common sample (attitude established, no lever arm) pays a load, a
            // compare and a branch; re-establishing and the lever arm share the out-of-line path.
            if isOrdinary {
                updateInclination(sample.accelerometer, measured: sample.accelerometer, gyroscope: gyroscope,
                                  dt: dt, flags: &newFlags)
            } else {
                updateInclinationUnusually(sample.accelerometer, rate: rate, gyroscope: gyroscope, dt: dt,
                                           flags: &newFlags)
            }
        } else {
            rest.interrupt()
            earthAttitude = Self.renormalized(inclinationCorrection * gyroscopeAttitude)
            if !convergence.isConverged { newFlags.insert(.notConverged) }
        }
        if accelerationFilter.isAveraging { newFlags.insert(.initialising) }

        // 3. Heading from the magnetometer.
        // A reading identical to the previous one is usually a held value, not a new
        // measurement (magnetometers sample slower than the IMU): it carries no information
        // and its age is unknown. So readings correct the heading weighted by the time since
        // the last fresh one, and a steady, repeating reading still counts every 0.1 s.
        magnetometerElapsed += dt
        // The verdict passes a magnetometer only when the sample has one. The comparison is
        // lane-wise: a whole-vector != of SIMD3 stays a scalar loop in Embedded Swift.
        if verdict.magnetometer, case let m = sample.magnetometer.unsafelyUnwrapped,
           any(m .!= lastMagnetometer) || magnetometerElapsed >= Self.longestMagnetometerStep {
            lastMagnetometer = m
            let step = min(magnetometerElapsed, Self.longestMagnetometerStep)
            // Brought forward to the gyroscope's time; the offset, fixed in the body, does not
            // turn. When the offset moves, the disturbance reference may have been taken from
            // readings with the old one in them (see `hardIronMoved`).
            let current = magnetometerLatency.corrected(m - hardIron.offset, rate: rate)
            if hardIron.observe(corrected: current, attitude: earthAttitude, dt: step) {
                hardIronMoved()
            }
            updateHeading(current, rate: rate, dt: step, flags: &newFlags)
            magnetometerElapsed = 0
        }

        // Never let anything non-finite out: start again instead. Every component of the
        // product depends on every component of both factors, and the renormalisation scales
        // all four by one factor from their squared norm, so a NaN or infinity anywhere leaves
        // `w` NaN or infinite: `w` alone (times 0, NaN then) covers the attitude, and the sum
        // covers the bias.
        output = Self.renormalized(headingCorrection * earthAttitude)
        if output.w * 0 + (biasEstimator.bias * 0).sum() != 0 {
            restart()
            newFlags.insert(.initialising)
        }
        flags = newFlags
    }

    /// Forgets the attitude and every estimate (keeps the rejected-sample count).
    @inlinable
    public mutating func restart() {
        let count = rejectedSamples
        self = PoiseFilter(settings: settings)
        rejectedSamples = count
    }
}

extension PoiseFilter {
    /// Longest interval one magnetometer reading stands for, s (a 10 Hz magnetometer); an
    /// unchanged reading is taken as fresh again after this long.
    @inlinable static var longestMagnetometerStep: Float { 0.1 }

    /// Flags that stay set across a skipped sample.
    @inlinable static var persistentFlags: FilterFlags {
        FilterFlags(rawValue: FilterFlags.initialising.rawValue | FilterFlags.magneticDisturbance.rawValue
                    | FilterFlags.notConverged.rawValue)
    }

    /// The rotation by the rotation vector `v` (rad): below 0.25 rad (one sample at up to
    /// 70 rad/s and 285 Hz) a fourth-order series, exact to Float precision; beyond, libm.
    @inlinable @inline(__always)
    static func rotation(_ v: SIMD3<Float>) -> Quaternion {
        let a2 = dot(v, v)
        guard a2 < 0.0625 else { return Quaternion(rotationVector: v) }
        let w = 1 - a2 / 8 + a2 * a2 / 384
        let s = 0.5 - a2 / 48 + a2 * a2 / 3840
        return Quaternion(real: w, imaginary: v * s)
    }

    /// The rotation by `angle` (rad) about world z.
    @inlinable @inline(__always)
    static func rotationAboutVertical(_ angle: Float) -> Quaternion {
        let a2 = angle * angle
        guard a2 < 0.0625 else {
            return Quaternion(w: _cos(angle / 2), x: 0, y: 0, z: _sin(angle / 2))
        }
        return Quaternion(w: 1 - a2 / 8 + a2 * a2 / 384, x: 0, y: 0,
                          z: angle * (0.5 - a2 / 48 + a2 * a2 / 3840))
    }
}
