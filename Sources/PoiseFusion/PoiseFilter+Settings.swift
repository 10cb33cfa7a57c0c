import PoiseMath

extension PoiseFilter {
    /// Tunable parameters of `PoiseFilter`. One set of defaults serves every motion; the
    /// values follow the physics of MEMS IMUs (bias drift, noise, Earth's field), not a trace.
    @frozen
    public struct Settings: Sendable {
        /// Time constant of the accelerometer low-pass filter, s. Longer rejects linear
        /// acceleration better; shorter follows gyroscope drift faster.
        public var accelerometerTimeConstant: Float
        /// Time constant of the heading correction from the magnetometer, s.
        public var magnetometerTimeConstant: Float
        /// Estimate the gyroscope bias while the sensor is at rest.
        public var restBiasEstimation: Bool
        /// Estimate the horizontal (world x/y) gyroscope bias during motion from the
        /// inclination correction.
        public var motionBiasEstimation: Bool
        /// Detect magnetic disturbances (field norm or dip off the reference) and stop the
        /// heading correction while they last.
        public var magneticDisturbanceRejection: Bool
        /// Learn a hard-iron offset carried with the sensor (a magnet or magnetised part
        /// fixed to it) from how the field turns with the body; see `HardIronEstimator`.
        public var hardIronEstimation: Bool
        /// Window of the hard-iron fit, s: how quickly an offset that appears or goes away is
        /// learned, at the cost of noisier fits.
        public var hardIronTimeConstant: Float
        /// Least improvement of the RMS misfit for which the hard-iron offset moves, as a
        /// fraction of the earth's field the fit finds (0.07: what a 4° attitude error leaves).
        public var hardIronMinimumImprovement: Float
        /// Largest RMS misfit a hard-iron fit may leave, as a fraction of the earth's field it
        /// finds: beyond it the field is not a body-fixed offset plus the earth's (it varies in
        /// the room, or a magnet is so close that its field bends), and the offset stays.
        public var hardIronMaximumResidual: Float
        /// Learn how much older a magnetometer reading is than the gyroscope's, and turn each
        /// reading forward by the rotation since it was measured; see `MagnetometerLatencyEstimator`.
        public var magnetometerLatencyEstimation: Bool
        /// Magnetometer latency to start from (or keep, when not learned), s.
        public var magnetometerLatency: Float

        /// Rest: low-pass filtered angular rate must stay below this, rad/s.
        public var restGyroscopeThreshold: Float
        /// Rest: accelerometer deviation from its low-pass value must stay below this, m/s².
        public var restAccelerometerThreshold: Float
        /// Rest: both conditions must hold this long before rest is declared, s.
        public var restTime: Float
        /// Time constant of the rest-detection low-pass filters, s.
        public var restFilterTimeConstant: Float

        /// Largest gyroscope bias estimated (per axis), rad/s.
        public var biasLimit: Float
        /// Initial one-sigma bias uncertainty, and the ceiling it returns to when nothing
        /// measures the bias for a long time, rad/s.
        public var biasInitialUncertainty: Float
        /// One-sigma noise of the motion bias measurement (the drift of the filtered gravity),
        /// rad/s. It is correlated over `accelerometerTimeConstant`, and weighted accordingly.
        public var biasMotionUncertainty: Float
        /// Extra motion-measurement noise per unit angular rate (gyroscope axis misalignment,
        /// and scale-factor error not yet learned, make fast rotation look like bias),
        /// dimensionless.
        public var biasMotionRateUncertainty: Float
        /// One-sigma noise of the rest bias measurement (the filtered angular rate), rad/s;
        /// correlated over `restFilterTimeConstant`.
        public var biasRestUncertainty: Float
        /// The bias is modelled as a random walk that moves by a fifth of
        /// `biasInitialUncertainty` in this time, s: longer trusts old estimates longer. The
        /// default, 300 s, is 0.1 °/s per √300 s = 0.0058 °/s/√s, the random walk of an
        /// uncalibrated MPU-9250's bias (`SensorErrorModel.uncalibrated`); a drift the model
        /// calls faster than the sensor's makes the estimate forget good rest measurements
        /// within seconds and follow noise in motion.
        public var biasForgettingTime: Float
        /// Initial one-sigma uncertainty of each gyroscope axis's scale-factor error,
        /// dimensionless (0.01: 1 %; 0 turns the estimate off). The error is learned in motion
        /// from the same drift of the filtered gravity as the bias, and corrects every rate.
        public var gyroscopeScaleUncertainty: Float

        /// Accelerometer samples whose specific force differs from the expected gravity
        /// *vector* by more than this are held out of the inclination filter, m/s²
        /// (`.infinity`, the default, disables rejection: the low-pass already averages a tap
        /// and its rebound to nothing, and holding a stroke's stop back only delays it, which
        /// costs a little on hand strokes and gained nothing measurable); the velocity change
        /// they carry beyond gravity enters with the next sample used, so a tap and its rebound cancel while a stroke's
        /// sharp stop still balances its gentle push. Only impacts should trip it: the
        /// low-pass filter in the inertial frame already averages ordinary linear acceleration
        /// to zero. The test is on the vector, not the norm, so both halves of a swing are
        /// treated alike (a norm test keeps the half whose acceleration points down).
        public var accelerationRejectionThreshold: Float
        /// Longest continuous acceleration rejection, s (an impact lasts milliseconds); after
        /// it every sample is used again.
        public var accelerationRejectionTime: Float

        /// Relative field-norm deviation from the reference that counts as a disturbance.
        public var magneticNormThreshold: Float
        /// Dip-angle deviation from the reference that counts as a disturbance, rad.
        public var magneticDipThreshold: Float
        /// Largest disagreement between the field's heading and the filter's that one reading
        /// may correct, rad (`.infinity`: no limit). A magnet the sensor moves past can turn the
        /// horizontal field while leaving its norm and dip alone; with the limit it moves the
        /// heading by at most this much per `magnetometerTimeConstant`. Not applied while the
        /// heading starts up or just after a rejected disturbance, and raised to twice what the
        /// gyroscope's scale uncertainty may have turned the heading since the last correction
        /// when that is more. The default, 5°, is about twice the heading noise of one reading
        /// (0.6 µT across a 15–20 µT horizontal field).
        public var magneticHeadingThreshold: Float
        /// Time constant with which the reference norm and dip follow undisturbed readings, s.
        public var magneticReferenceTimeConstant: Float
        /// The field must match the reference this long before it is trusted again, s.
        public var magneticUndisturbedTime: Float
        /// A new, steady field must be seen during rotation this long to become the reference, s.
        public var magneticNewFieldTime: Float
        /// The first reference is accepted after this long of a steady field, s.
        public var magneticFirstFieldTime: Float
        /// Rotation faster than this counts towards `magneticNewFieldTime`, rad/s.
        public var magneticNewFieldMinimumRate: Float
        /// Longest time the heading correction is suspended by a disturbance, s; afterwards it
        /// resumes with the time constant multiplied by `magneticRejectionFactor`.
        public var magneticMaximumRejectionTime: Float
        /// Slow-down of the heading correction during a long disturbance, and the rate at which
        /// the rejection time budget recovers.
        public var magneticRejectionFactor: Float

        /// Input screening (non-finite values, bad `dt`, implausible norms).
        public var screen: SampleScreen
        /// Angular rates above this skip the sample as a glitch, rad/s (MEMS gyroscopes top
        /// out at 2000 °/s ≈ 35 rad/s).
        public var maximumAngularRate: Float
        /// Where the accelerometer sits relative to the centre of rotation, m, body frame
        /// (zero: at the centre, no compensation). Rotation then adds ω̇ × r + ω × (ω × r) to
        /// the specific force, which the filter subtracts before the inclination low-pass.
        public var leverArm: SIMD3<Float>
        /// Time over which the body velocity whose turning is the sustained acceleration (a
        /// wheeled robot's centripetal acceleration) is learned, s; 0 turns the estimate off.
        public var bodyVelocityTimeConstant: Float

        /// The defaults.
        public static let `default` = Settings()

        public init(
            accelerometerTimeConstant: Float = 3,
            magnetometerTimeConstant: Float = 9,
            restBiasEstimation: Bool = true,
            motionBiasEstimation: Bool = true,
            magneticDisturbanceRejection: Bool = true,
            hardIronEstimation: Bool = true,
            hardIronTimeConstant: Float = 5,
            hardIronMinimumImprovement: Float = 0.07,
            hardIronMaximumResidual: Float = 0.15,
            magnetometerLatencyEstimation: Bool = true,
            magnetometerLatency: Float = 0,
            restGyroscopeThreshold: Float = 2 * .pi / 180,
            restAccelerometerThreshold: Float = 0.5,
            restTime: Float = 1.5,
            restFilterTimeConstant: Float = 0.5,
            biasLimit: Float = 2 * .pi / 180,
            biasInitialUncertainty: Float = 0.5 * .pi / 180,
            biasMotionUncertainty: Float = 0.1 * .pi / 180,
            biasMotionRateUncertainty: Float = 0.01,
            biasRestUncertainty: Float = 0.03 * .pi / 180,
            biasForgettingTime: Float = 300,
            gyroscopeScaleUncertainty: Float = 0.01,
            accelerationRejectionThreshold: Float = .infinity,
            accelerationRejectionTime: Float = 0.1,
            magneticNormThreshold: Float = 0.1,
            magneticDipThreshold: Float = 10 * .pi / 180,
            magneticHeadingThreshold: Float = 5 * .pi / 180,
            magneticReferenceTimeConstant: Float = 20,
            magneticUndisturbedTime: Float = 0.5,
            magneticNewFieldTime: Float = 20,
            magneticFirstFieldTime: Float = 5,
            magneticNewFieldMinimumRate: Float = 20 * .pi / 180,
            magneticMaximumRejectionTime: Float = 60,
            magneticRejectionFactor: Float = 2,
            screen: SampleScreen = .default,
            maximumAngularRate: Float = 50,
            leverArm: SIMD3<Float> = SIMD3(0, 0, 0),
            bodyVelocityTimeConstant: Float = 3
        ) {
            self.accelerometerTimeConstant = accelerometerTimeConstant
            self.magnetometerTimeConstant = magnetometerTimeConstant
            self.restBiasEstimation = restBiasEstimation
            self.motionBiasEstimation = motionBiasEstimation
            self.magneticDisturbanceRejection = magneticDisturbanceRejection
            self.hardIronEstimation = hardIronEstimation
            self.hardIronTimeConstant = hardIronTimeConstant
            self.hardIronMinimumImprovement = hardIronMinimumImprovement
            self.hardIronMaximumResidual = hardIronMaximumResidual
            self.magnetometerLatencyEstimation = magnetometerLatencyEstimation
            self.magnetometerLatency = magnetometerLatency
            self.restGyroscopeThreshold = restGyroscopeThreshold
            self.restAccelerometerThreshold = restAccelerometerThreshold
            self.restTime = restTime
            self.restFilterTimeConstant = restFilterTimeConstant
            self.biasLimit = biasLimit
            self.biasInitialUncertainty = biasInitialUncertainty
            self.biasMotionUncertainty = biasMotionUncertainty
            self.biasMotionRateUncertainty = biasMotionRateUncertainty
            self.biasRestUncertainty = biasRestUncertainty
            self.biasForgettingTime = biasForgettingTime
            self.gyroscopeScaleUncertainty = gyroscopeScaleUncertainty
            self.accelerationRejectionThreshold = accelerationRejectionThreshold
            self.accelerationRejectionTime = accelerationRejectionTime
            self.magneticNormThreshold = magneticNormThreshold
            self.magneticDipThreshold = magneticDipThreshold
            self.magneticHeadingThreshold = magneticHeadingThreshold
            self.magneticReferenceTimeConstant = magneticReferenceTimeConstant
            self.magneticUndisturbedTime = magneticUndisturbedTime
            self.magneticNewFieldTime = magneticNewFieldTime
            self.magneticFirstFieldTime = magneticFirstFieldTime
            self.magneticNewFieldMinimumRate = magneticNewFieldMinimumRate
            self.magneticMaximumRejectionTime = magneticMaximumRejectionTime
            self.magneticRejectionFactor = magneticRejectionFactor
            self.screen = screen
            self.maximumAngularRate = maximumAngularRate
            self.leverArm = leverArm
            self.bodyVelocityTimeConstant = bodyVelocityTimeConstant
        }
    }
}
