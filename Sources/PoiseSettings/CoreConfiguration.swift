import PoiseConfig
import PoiseControl
import PoiseFusion
import PoiseMath
import PoiseOutputs
import PoiseFlightCore

/// Turns a configuration's `controller`, `safety` and `loop` sections into the values the
/// ``FlightCore`` runs with (degrees → radians, keys → settings structs).
public enum CoreConfiguration {
    public static func controller(_ configuration: PoiseConfiguration) -> ControllerState {
        let c = configuration.controller
        switch c.kind {
        case .none:
            return .none
        case .balance:
            return .balance(BalanceController(settings: c.balance))
        case .quadX, .quadPlus:
            return .quad(QuadAttitudeController(settings: quad(c.quad, frame: c.kind == .quadX ? .x : .plus)))
        }
    }

    /// The quad's gains from the file with the frame `controller.kind` names.
    public static func quad(_ q: PoiseConfiguration.Controller.Quad, frame: QuadFrame) -> QuadSettings {
        var settings = q.settings
        settings.frame = frame
        return settings
    }

    /// With no controller nothing can fall over: tilt neither limits nor gates arming, so
    /// level-following outputs (a face-down LED, a tilt servo) work at any attitude.
    public static func safety(_ configuration: PoiseConfiguration) -> SafetySettings {
        var settings = configuration.safety.supervisor
        let tiltMatters = configuration.controller.kind != .none
        if !tiltMatters { (settings.maxTilt, settings.armTilt) = (.infinity, .infinity) }
        settings.overrunLimit = configuration.loop.overrunLimit
        // A quadrotor never re-arms by itself, whatever a file says.
        if kindIsQuad(configuration) { settings.rearm = .never }
        return settings
    }

    /// The start-up gyroscope bias measurement: `loop.gyroscope_bias_time`, or none (0) when
    /// the file calibrates the gyroscope bias itself.
    public static func startupBias(_ configuration: PoiseConfiguration) -> StartupBias {
        StartupBias(duration: configuration.loop.gyroscopeBiasTime)
    }

    /// A ready core for `filter`.
    public static func core<Filter: AttitudeFilter>(_ configuration: PoiseConfiguration, filter: Filter) -> FlightCore<Filter> {
        let outputs = OutputBankSettings(configuration: configuration)
        var core = FlightCore(filter: filter, controller: controller(configuration), safety: safety(configuration),
                              mapper: OutputMapper(outputs.channels.map(\.mapping)),
                              frame: OutputFrameTransform(OutputFrame(configuration: configuration.frame),
                                                          declinationDegrees: Float(configuration.frame.declinationDegrees)),
                              startupBias: startupBias(configuration))
        core.gyroFilters = gyroFilters(configuration)
        return core
    }

    /// `filter.gyro` at the loop's rate: one gyroscope sample reaches the tick per period.
    public static func gyroFilters(_ configuration: PoiseConfiguration) -> GyroFilterBank {
        GyroFilterBank(settings: configuration.filter.gyro, sampleRate: Float(configuration.loop.rateHz))
    }

    /// What SIGHUP may change, from a freshly loaded and validated configuration.
    public static func tuning(_ configuration: PoiseConfiguration) -> CoreTuning {
        let outputs = OutputBankSettings(configuration: configuration)
        let c = configuration.controller
        let controller: CoreTuning.Controller = switch c.kind {
        case .none: .none
        case .balance: .balance(c.balance)
        case .quadX: .quad(quad(c.quad, frame: .x))
        case .quadPlus: .quad(quad(c.quad, frame: .plus))
        }
        return CoreTuning(controller: controller, safety: safety(configuration),
                          mapper: OutputMapper(outputs.channels.map(\.mapping)))
    }

    static func kindIsQuad(_ configuration: PoiseConfiguration) -> Bool {
        configuration.controller.kind == .quadX || configuration.controller.kind == .quadPlus
    }

}
