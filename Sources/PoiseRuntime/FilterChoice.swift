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

    /// The `filter` section of a configuration.
    public init(configuration filter: PoiseConfiguration.Filter) {
        self.init(kind: FilterKind(rawValue: filter.name.rawValue) ?? .default)
        complementary.timeConstant = Float(filter.complementary.timeConstant)
        mahony.kp = Float(filter.mahony.kp)
        mahony.ki = Float(filter.mahony.ki)
        madgwick.beta = Float(filter.madgwick.beta)
        madgwick.startupGain = Float(filter.madgwick.startupGain)
        madgwick.startupTime = Float(filter.madgwick.startupTime)
        mekf.gyroscopeNoise = Float(filter.mekf.gyroscopeNoise)
        mekf.gyroscopeBiasNoise = Float(filter.mekf.gyroscopeBiasNoise)
        mekf.accelerometerNoise = Float(filter.mekf.accelerometerNoise)
        mekf.magnetometerNoise = Float(filter.mekf.magnetometerNoise)
        let p = filter.poise
        poise.accelerometerTimeConstant = Float(p.accelerometerTimeConstant)
        poise.magnetometerTimeConstant = Float(p.magnetometerTimeConstant)
        poise.restBiasEstimation = p.restBiasEstimation
        poise.motionBiasEstimation = p.motionBiasEstimation
        poise.magneticDisturbanceRejection = p.magneticDisturbanceRejection
        poise.restGyroscopeThreshold = Float(p.restGyroscopeThreshold)
        poise.restAccelerometerThreshold = Float(p.restAccelerometerThreshold)
        poise.restTime = Float(p.restTime)
        poise.biasLimit = Float(p.biasLimit)
    }

    /// Creates the chosen filter and hands it to `work`.
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
