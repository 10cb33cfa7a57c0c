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

    /// The `filter` section of a configuration: the settings its keys are bound to
    /// (ConfigSchema+Filter.swift says where each key lands, in which unit).
    public init(configuration: PoiseConfiguration) {
        let filter = configuration.filter
        self.init(kind: FilterKind(rawValue: filter.name.rawValue) ?? .default)
        complementary = filter.complementary
        mahony = filter.mahony
        madgwick = filter.madgwick
        mekf = filter.mekf
        poise = filter.poise
        // The lever arm is where the sensor is mounted, a fact of the board, so it is a
        // sensor key; only the poise filter compensates it.
        let arm = configuration.sensor.leverArmMeters
        poise.leverArm = SIMD3(Float(arm.x), Float(arm.y), Float(arm.z))
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
