import PoiseControl
import PoiseFlightCore
import PoiseFusion
import PoiseMath
import PoiseOutputs

extension FlightSettings {
    /// The controller, ready to run.
    public var controllerState: ControllerState {
        switch controller {
        case .none: .none
        case .balance(let settings): .balance(BalanceController(settings: settings))
        case .quad(let settings): .quad(QuadAttitudeController(settings: settings))
        }
    }

    /// The channels' mappings, in channel order.
    public var mapper: OutputMapper { OutputMapper(channels.map { $0.mapping }) }

    /// A ready core running `filter`: the one way a ``FlightCore`` is built from settings, on
    /// the host (the live loop, `poise simulate`, `poise replay`) and on the board alike.
    public func core<Filter: AttitudeFilter>(filter: Filter) -> FlightCore<Filter> {
        var core = FlightCore(filter: filter, controller: controllerState, safety: safety, mapper: mapper,
                              frame: OutputFrameTransform(frame, declinationDegrees: declinationDegrees),
                              startupBias: StartupBias(duration: startupBiasDuration))
        core.gyroFilters = GyroFilterBank(settings: gyroFilters, sampleRate: Float(loopRateHz))
        return core
    }

    /// What a reload may change while the loop runs.
    public var tuning: ReloadableSettings {
        let tuned: ReloadableSettings.Controller = switch controller {
        case .none: .none
        case .balance(let settings): .balance(settings)
        case .quad(let settings): .quad(settings)
        }
        return ReloadableSettings(controller: tuned, safety: safety, mapper: mapper)
    }
}

/// Work to do with a concrete filter type: ``FilterSettings/run(_:)`` calls `run(_:)` with the
/// chosen filter, so the work is compiled once per filter (specialised, no existential).
public protocol FilterKindWork: ~Copyable {
    associatedtype Output
    associatedtype Failure: Error
    mutating func run<Filter: AttitudeFilter>(_ filter: inout Filter) throws(Failure) -> Output
}

extension FilterSettings {
    /// Creates the chosen filter with its settings and hands it to `work`.
    @inlinable
    public func run<Work: FilterKindWork & ~Copyable>(_ work: inout Work) throws(Work.Failure) -> Work.Output {
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
