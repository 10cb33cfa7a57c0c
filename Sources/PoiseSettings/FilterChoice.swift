import PoiseConfig
import PoiseFusion

/// Work to do with a concrete filter type. `FilterChoice.run(_:)` calls `body(_:)` with the
/// chosen filter, so the work is compiled once per filter (specialised, no existential).
public protocol FilterWork: ~Copyable {
    associatedtype Output
    mutating func run<Filter: AttitudeFilter>(_ filter: inout Filter) throws -> Output
}

/// A filter kind and the settings of every filter, as the config file gives them.
public struct FilterChoice: Sendable {
    public var kind: FilterKind
    public var complementary = ComplementaryFilter.Settings.default
    public var mahony = MahonyFilter.Settings.default
    public var madgwick = MadgwickFilter.Settings.default
    public var mekf = MultiplicativeKalmanFilter.Settings.default
    public var poise = PoiseFilter.Settings.default

    public init(kind: FilterKind = .default) { self.kind = kind }

    /// The `filter` section of a configuration. Angles and rates are written in degrees
    /// there and become radians here; a rejection threshold of 0 means "never reject".
    public init(configuration: PoiseConfiguration) {
        let filter = configuration.filter
        let v = configuration.values
        func number(_ key: String) -> Float { Float(v.number("filter." + key)) }
        func radians(_ key: String) -> Float { number(key) * .pi / 180 }
        func threshold(_ key: String) -> Float { number(key) == 0 ? .infinity : number(key) }

        self.init(kind: FilterKind(rawValue: filter.name.rawValue) ?? .default)
        complementary.timeConstant = number("complementary.time_constant")
        mahony.kp = number("mahony.kp")
        mahony.ki = number("mahony.ki")
        madgwick.beta = number("madgwick.beta")
        madgwick.startupGain = number("madgwick.startup_gain")
        madgwick.startupTime = number("madgwick.startup_time")

        mekf.gyroscopeNoise = number("mekf.gyroscope_noise")
        mekf.gyroscopeBiasNoise = number("mekf.gyroscope_bias_noise")
        mekf.accelerometerNoise = number("mekf.accelerometer_noise")
        mekf.magnetometerNoise = number("mekf.magnetometer_noise")
        mekf.accelerationRejection = threshold("mekf.acceleration_rejection")
        mekf.magneticNormTolerance = number("mekf.magnetic_norm_tolerance")
        mekf.magneticDipTolerance = radians("mekf.magnetic_dip_tolerance")
        mekf.magneticRecoveryTime = number("mekf.magnetic_recovery_time")
        mekf.initialBiasUncertainty = number("mekf.initial_bias_uncertainty")
        mekf.restTime = number("mekf.rest_time")

        poise.accelerometerTimeConstant = number("poise.accelerometer_time_constant")
        poise.magnetometerTimeConstant = number("poise.magnetometer_time_constant")
        poise.restBiasEstimation = v.boolean("filter.poise.rest_bias_estimation")
        poise.motionBiasEstimation = v.boolean("filter.poise.motion_bias_estimation")
        poise.magneticDisturbanceRejection = v.boolean("filter.poise.magnetic_disturbance_rejection")
        poise.hardIronEstimation = v.boolean("filter.poise.hard_iron_estimation")
        poise.hardIronTimeConstant = number("poise.hard_iron_time_constant")
        poise.hardIronMinimumImprovement = number("poise.hard_iron_minimum_improvement")
        poise.hardIronMaximumResidual = number("poise.hard_iron_maximum_residual")
        poise.magnetometerLatencyEstimation = v.boolean("filter.poise.magnetometer_latency_estimation")
        poise.magnetometerLatency = number("poise.magnetometer_latency") / 1000
        poise.restGyroscopeThreshold = radians("poise.rest_gyroscope_threshold")
        poise.restAccelerometerThreshold = number("poise.rest_accelerometer_threshold")
        poise.restTime = number("poise.rest_time")
        poise.restFilterTimeConstant = number("poise.rest_filter_time_constant")
        poise.biasLimit = radians("poise.bias_limit")
        poise.biasInitialUncertainty = radians("poise.bias_initial_uncertainty")
        poise.biasMotionUncertainty = radians("poise.bias_motion_uncertainty")
        poise.biasMotionRateUncertainty = number("poise.bias_motion_rate_uncertainty")
        poise.biasRestUncertainty = radians("poise.bias_rest_uncertainty")
        poise.biasForgettingTime = number("poise.bias_forgetting_time")
        poise.gyroscopeScaleUncertainty = number("poise.gyroscope_scale_uncertainty") / 100
        poise.accelerationRejectionThreshold = threshold("poise.acceleration_rejection_threshold")
        poise.accelerationRejectionTime = number("poise.acceleration_rejection_time")
        poise.magneticNormThreshold = number("poise.magnetic_norm_threshold")
        poise.magneticDipThreshold = radians("poise.magnetic_dip_threshold")
        poise.magneticHeadingThreshold = number("poise.magnetic_heading_threshold") == 0
            ? .infinity : radians("poise.magnetic_heading_threshold")
        poise.magneticReferenceTimeConstant = number("poise.magnetic_reference_time_constant")
        poise.magneticUndisturbedTime = number("poise.magnetic_undisturbed_time")
        poise.magneticNewFieldTime = number("poise.magnetic_new_field_time")
        poise.magneticFirstFieldTime = number("poise.magnetic_first_field_time")
        poise.magneticNewFieldMinimumRate = radians("poise.magnetic_new_field_minimum_rate")
        poise.magneticMaximumRejectionTime = number("poise.magnetic_maximum_rejection_time")
        poise.magneticRejectionFactor = number("poise.magnetic_rejection_factor")
    }

    /// Creates the chosen filter and hands it to `work`. Inlinable, so that work defined in
    /// another module (the live loop) is compiled for each concrete filter there instead of
    /// running as unspecialised generic code with run-time type metadata lookups.
    @inlinable
    public func run<Work: FilterWork & ~Copyable>(_ work: inout Work) throws -> Work.Output {
        switch kind {
        case .poise:
            var filter = PoiseFilter(settings: poise)
            return try work.run(&filter)
        case .mekf:
            var filter = MultiplicativeKalmanFilter(settings: mekf)
            return try work.run(&filter)
        case .madgwick:
            var filter = MadgwickFilter(settings: madgwick)
            return try work.run(&filter)
        case .mahony:
            var filter = MahonyFilter(settings: mahony)
            return try work.run(&filter)
        case .complementary:
            var filter = ComplementaryFilter(settings: complementary)
            return try work.run(&filter)
        }
    }
}
