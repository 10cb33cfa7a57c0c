import PoiseFusion

extension ConfigSchema {
    // The filter section is one table: each key is bound to the field of the filter's settings it
    // sets, and its default is that field's default. Exposing a filter setting is one line here
    // (then regenerate boards/poise.example.yaml and the docs/config.md table).

    static let filterGroups: [ConfigGroup] = [
        ConfigGroup("filter", doc: "Attitude filter."),
        ConfigGroup("filter.complementary", doc: "Complementary filter."),
        ConfigGroup("filter.madgwick", doc: "Madgwick gradient-descent filter."),
        ConfigGroup("filter.mahony", doc: "Mahony explicit complementary filter."),
        ConfigGroup("filter.mekf", doc: "Multiplicative extended Kalman filter: noise densities."),
        ConfigGroup("filter.poise", doc: "Poise filter (VQF-style): time constants, bias estimation, disturbance rejection."),
    ] + gyroFilterGroups

    static let filterKeys: [ConfigKey] = PoiseConfiguration.Filter.bindings.map(\.key)

    /// `filter.complementary`, bound to `ComplementaryFilter.Settings`.
    public static let complementaryBindings: [ConfigBinding<ComplementaryFilter.Settings>] = {
        let d = ComplementaryFilter.Settings.default
        return [
            .number("filter.complementary.time_constant", \.timeConstant, range: 0.01...100, unit: "s", defaults: d,
                    doc: "Time over which accelerometer and magnetometer correct the gyroscope."),
        ]
    }()

    /// `filter.madgwick`, bound to `MadgwickFilter.Settings`.
    public static let madgwickBindings: [ConfigBinding<MadgwickFilter.Settings>] = {
        let d = MadgwickFilter.Settings.default
        return [
            .number("filter.madgwick.beta", \.beta, range: 0...10, defaults: d,
                    doc: "Gradient-descent gain; larger trusts accelerometer and magnetometer more."),
            .number("filter.madgwick.startup_gain", \.startupGain, range: 0...100, defaults: d,
                    doc: "Gain used during start-up so the attitude converges quickly."),
            .number("filter.madgwick.startup_time", \.startupTime, range: 0...60, unit: "s", defaults: d,
                    doc: "Duration of the start-up gain."),
        ]
    }()

    /// `filter.mahony`, bound to `MahonyFilter.Settings`.
    public static let mahonyBindings: [ConfigBinding<MahonyFilter.Settings>] = {
        let d = MahonyFilter.Settings.default
        return [
            .number("filter.mahony.kp", \.kp, range: 0...100, defaults: d,
                    doc: "Proportional gain of the attitude error feedback."),
            .number("filter.mahony.ki", \.ki, range: 0...100, defaults: d,
                    doc: "Integral gain (gyroscope bias estimation)."),
        ]
    }()

    /// `filter.mekf`, bound to `MultiplicativeKalmanFilter.Settings`.
    public static let mekfBindings: [ConfigBinding<MultiplicativeKalmanFilter.Settings>] = {
        let d = MultiplicativeKalmanFilter.Settings.default
        return [
            .number("filter.mekf.gyroscope_noise", \.gyroscopeNoise, range: 0...10, unit: "rad/s", defaults: d,
                    doc: "Gyroscope white noise."),
            .number("filter.mekf.gyroscope_bias_noise", \.gyroscopeBiasNoise, range: 0...1, unit: "rad/s²", defaults: d,
                    doc: "Gyroscope bias random walk."),
            .number("filter.mekf.accelerometer_noise", \.accelerometerNoise, range: 0...100, unit: "m/s²", defaults: d,
                    doc: "Accelerometer noise including unmodelled acceleration."),
            .number("filter.mekf.magnetometer_noise", \.magnetometerNoise, range: 0...1000, unit: "µT", defaults: d,
                    doc: "Magnetometer noise including unmodelled disturbance."),
            .number("filter.mekf.acceleration_rejection", \.accelerationRejection, range: 0...1000, unit: "m/s²", zeroTurnsOff: .infinity, defaults: d,
                    doc: "Accelerometer samples whose norm differs from 1 g by more than this are not used; 0 disables rejection."),
            .number("filter.mekf.magnetic_norm_tolerance", \.magneticNormTolerance, range: 0...10, defaults: d,
                    doc: "Relative deviation of the field norm from the reference that counts as a disturbance."),
            .number("filter.mekf.magnetic_dip_tolerance", \.magneticDipTolerance, range: 0...90, unit: "°", .degreesToRadians, defaults: d,
                    doc: "Deviation of the field's dip angle from the reference that counts as a disturbance."),
            .number("filter.mekf.magnetic_recovery_time", \.magneticRecoveryTime, range: 0...3600, unit: "s", defaults: d,
                    doc: "Continuous disturbance after which the field reference is learned again."),
            .number("filter.mekf.initial_bias_uncertainty", \.initialBiasUncertainty, range: 0...1, unit: "rad/s", defaults: d,
                    doc: "One-sigma gyroscope bias uncertainty at start-up."),
            .number("filter.mekf.rest_time", \.restTime, range: 0...60, unit: "s", defaults: d,
                    doc: "How long the sensor must be steady before it counts as at rest."),
        ]
    }()

    /// `filter.poise`, bound to `PoiseFilter.Settings`.
    public static let poiseBindings: [ConfigBinding<PoiseFilter.Settings>] = {
        let d = PoiseFilter.Settings.default
        return [
            .number("filter.poise.accelerometer_time_constant", \.accelerometerTimeConstant, range: 0.01...100, unit: "s", defaults: d,
                    doc: "Time constant of the inclination correction."),
            .number("filter.poise.magnetometer_time_constant", \.magnetometerTimeConstant, range: 0.01...1000, unit: "s", defaults: d,
                    doc: "Time constant of the heading correction."),
            .boolean("filter.poise.rest_bias_estimation", \.restBiasEstimation, defaults: d, doc: "Estimate gyroscope bias while at rest."),
            .boolean("filter.poise.motion_bias_estimation", \.motionBiasEstimation, defaults: d, doc: "Estimate gyroscope bias while moving."),
            .boolean("filter.poise.magnetic_disturbance_rejection", \.magneticDisturbanceRejection, defaults: d, doc: "Ignore the magnetometer while the field is disturbed."),
            .deprecatedSwitch("filter.poise.hard_iron_estimation", \.hardIronEstimation, defaults: d,
                              doc: "Deprecated: write hard_iron_time_constant: 0 to turn the hard-iron estimation off. false does the same."),
            .number("filter.poise.hard_iron_time_constant", \.hardIronTimeConstant, range: 0.5...600, unit: "s", zeroTurnsOff: \.hardIronEstimation, defaults: d,
                    doc: "Window of the hard-iron fit: how quickly an offset that appears or goes away is learned; 0 turns the estimation off (a magnet carried with the sensor is then not learned)."),
            .number("filter.poise.hard_iron_minimum_improvement", \.hardIronMinimumImprovement, range: 0...1, defaults: d,
                    doc: "Least improvement of the RMS misfit for which the learned hard-iron offset moves, as a fraction of the earth's field the fit finds (0.07: what a 4° attitude error leaves)."),
            .number("filter.poise.hard_iron_maximum_residual", \.hardIronMaximumResidual, range: 0...1, defaults: d,
                    doc: "Largest RMS misfit a hard-iron fit may leave, as a fraction of the earth's field it finds; a field that a constant offset explains worse (one varying in the room) is not learned."),
            .boolean("filter.poise.magnetometer_latency_estimation", \.magnetometerLatencyEstimation, defaults: d, doc: "Learn how much older a magnetometer reading is than the gyroscope's, from how the field lags the rotation, and turn each reading forward by the rotation since it was measured."),
            .number("filter.poise.magnetometer_latency", \.magnetometerLatency, range: -20...50, unit: "ms", .millisecondsToSeconds, defaults: d,
                    doc: "Magnetometer latency to start from, or to keep when it is not learned (negative: the gyroscope's own low-pass delays it more)."),
            .number("filter.poise.rest_gyroscope_threshold", \.restGyroscopeThreshold, range: 0...100, unit: "°/s", .degreesToRadians, defaults: d,
                    doc: "Filtered rotation rate below which the sensor may be at rest (its wobble may be twice this)."),
            .number("filter.poise.rest_accelerometer_threshold", \.restAccelerometerThreshold, range: 0...10, unit: "m/s²", defaults: d,
                    doc: "Deviation of the accelerometer from its low-pass, averaged over half the rest filter's time constant (the same at any sample rate), below which the sensor may be at rest; a fifth of it counts as still."),
            .number("filter.poise.rest_time", \.restTime, range: 0...60, unit: "s", defaults: d,
                    doc: "Time both thresholds must hold before rest is declared."),
            .number("filter.poise.rest_filter_time_constant", \.restFilterTimeConstant, range: 0.01...60, unit: "s", defaults: d,
                    doc: "Time constant of the low-pass filters rest detection looks at."),
            .number("filter.poise.bias_limit", \.biasLimit, range: 0...100, unit: "°/s", .degreesToRadians, defaults: d,
                    doc: "Largest gyroscope bias the filter will estimate."),
            .number("filter.poise.bias_initial_uncertainty", \.biasInitialUncertainty, range: 0...100, unit: "°/s", .degreesToRadians, defaults: d,
                    doc: "One-sigma bias uncertainty at start-up, and its ceiling."),
            .number("filter.poise.bias_motion_uncertainty", \.biasMotionUncertainty, range: 0...100, unit: "°/s", .degreesToRadians, defaults: d,
                    doc: "Noise of one bias measurement taken during motion (from the inclination drift)."),
            .number("filter.poise.bias_motion_rate_uncertainty", \.biasMotionRateUncertainty, range: 0...1, defaults: d,
                    doc: "Extra motion-measurement noise per unit angular rate (axis misalignment, and scale-factor error not yet learned)."),
            .number("filter.poise.bias_rest_uncertainty", \.biasRestUncertainty, range: 0...100, unit: "°/s", .degreesToRadians, defaults: d,
                    doc: "Noise of one bias measurement taken at rest."),
            .number("filter.poise.bias_forgetting_time", \.biasForgettingTime, range: 1...100_000, unit: "s", defaults: d,
                    doc: "Time over which the bias estimate's certainty decays (the bias random walk: it may wander 0.1 °/s in this time; 300 s is an uncalibrated MPU-9250's bias walk)."),
            .number("filter.poise.gyroscope_scale_uncertainty", \.gyroscopeScaleUncertainty, range: 0...10, unit: "%", .percentToFraction, defaults: d,
                    doc: "Prior uncertainty of each gyroscope axis's scale-factor error, learned in motion from the drift of the filtered gravity (0 turns the estimate off)."),
            .number("filter.poise.body_velocity_time_constant", \.bodyVelocityTimeConstant, range: 0...600, unit: "s", defaults: d,
                    doc: "Time over which the body's velocity is learned from the sustained acceleration while it turns (a wheeled robot's centripetal acceleration ω × v), so that the share the inclination low-pass would let through, and gyroscope errors could not explain, is taken out (0 turns the estimate off)."),
            .number("filter.poise.acceleration_rejection_threshold", \.accelerationRejectionThreshold, range: 0...1000, unit: "m/s²", zeroTurnsOff: .infinity, defaults: d,
                    doc: "Accelerometer samples whose specific force is this far from the expected gravity vector (impacts) are held out of the inclination filter, and the velocity change they carry enters with the next sample used (a tap and its rebound cancel; a stroke's sharp stop still balances its push); 0, the default, disables rejection (the low-pass already averages a tap and its rebound away)."),
            .number("filter.poise.acceleration_rejection_time", \.accelerationRejectionTime, range: 0...60, unit: "s", defaults: d,
                    doc: "Longest continuous acceleration rejection; afterwards every sample is used again."),
            .number("filter.poise.magnetic_norm_threshold", \.magneticNormThreshold, range: 0...10, defaults: d,
                    doc: "Relative deviation of the field norm from the reference that counts as a disturbance."),
            .number("filter.poise.magnetic_dip_threshold", \.magneticDipThreshold, range: 0...90, unit: "°", .degreesToRadians, defaults: d,
                    doc: "Deviation of the field's dip angle from the reference that counts as a disturbance."),
            .number("filter.poise.magnetic_heading_threshold", \.magneticHeadingThreshold, range: 0...180, unit: "°", .degreesToRadians, zeroTurnsOff: .infinity, defaults: d,
                    doc: "Largest heading disagreement one magnetometer reading may correct once the heading has settled (a magnet passed by can turn the field without changing its norm or dip); after fast turns it grows by what the gyroscope may have drifted. 0 removes the limit."),
            .number("filter.poise.magnetic_reference_time_constant", \.magneticReferenceTimeConstant, range: 0.1...10_000, unit: "s", defaults: d,
                    doc: "Time constant with which the reference norm and dip follow undisturbed readings."),
            .number("filter.poise.magnetic_undisturbed_time", \.magneticUndisturbedTime, range: 0...600, unit: "s", defaults: d,
                    doc: "How long the field must match the reference before it is trusted again."),
            .number("filter.poise.magnetic_new_field_time", \.magneticNewFieldTime, range: 0...3600, unit: "s", defaults: d,
                    doc: "How long a new steady field must be seen during rotation to become the reference."),
            .number("filter.poise.magnetic_first_field_time", \.magneticFirstFieldTime, range: 0...3600, unit: "s", defaults: d,
                    doc: "How long the first field must be steady to become the reference."),
            .number("filter.poise.magnetic_new_field_minimum_rate", \.magneticNewFieldMinimumRate, range: 0...10_000, unit: "°/s", .degreesToRadians, defaults: d,
                    doc: "Rotation faster than this counts towards magnetic_new_field_time."),
            .number("filter.poise.magnetic_maximum_rejection_time", \.magneticMaximumRejectionTime, range: 0...3600, unit: "s", defaults: d,
                    doc: "Longest time a disturbance suspends the heading correction; afterwards it resumes, slowed by magnetic_rejection_factor."),
            .number("filter.poise.magnetic_rejection_factor", \.magneticRejectionFactor, range: 1...100, defaults: d,
                    doc: "Slow-down of the heading correction during a long disturbance."),
        ]
    }()
}
