import PoiseConfig
import PoiseControl
import PoiseFlightCore
import PoiseFlightSettings
import PoiseFusion
import PoiseMath
import PoiseOutputs
import PoiseSchedules
import PoiseSensors

/// The flight core's factory: turns a configuration into the ``FlightSettings`` the
/// ``FlightCore`` runs with (degrees → radians, keys → settings structs, the rules between
/// sections applied) and builds the core from them. Every core is built from that one value —
/// the live loop's, `poise simulate`'s, the host's replay and the board's (which reads it from
/// `poise compile`'s file) — so no setting is resolved twice.
public enum FlightCoreFactory {
    /// Everything the flight core, the tick and a replay need from `configuration`.
    public static func settings(_ configuration: PoiseConfiguration) -> FlightSettings {
        let outputs = OutputBankSettings(configuration: configuration)
        return FlightSettings(
            filter: FilterSettings(configuration: configuration), gyroFilters: configuration.filter.gyro, controller: controllerSettings(configuration),
            safety: safety(configuration), channels: outputs.channels, frame: OutputFrame(configuration: configuration.frame),
            declinationDegrees: Float(configuration.frame.declinationDegrees),
            startupBiasDuration: configuration.loop.gyroscopeBiasTime, calibration: SensorCalibration(configuration: configuration),
            mounting: configuration.board.mounting, loopRateHz: configuration.loop.rateHz,
            setpoints: SetpointSettings(quadThrottle: Float(configuration.controller.quad.throttle),
                                        driveScript: driveScript(configuration)),
            rig: RigSettings(configuration: configuration), pca9685: outputs.pca9685, pwmSysfsRoot: outputs.pwmSysfsRoot)
    }

    /// `controller.kind` with its gains.
    public static func controllerSettings(_ configuration: PoiseConfiguration) -> ControllerSettings {
        let c = configuration.controller
        return switch c.kind {
        case .none: .none
        case .balance: .balance(c.balance)
        case .quadX: .quad(quad(c.quad, frame: .x))
        case .quadPlus: .quad(quad(c.quad, frame: .plus))
        }
    }

    public static func controller(_ configuration: PoiseConfiguration) -> ControllerState {
        FlightSettings(controller: controllerSettings(configuration)).controllerState
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

    /// The built-in drive script a balancing robot follows (`controller.balance.setpoint_file:
    /// preset:NAME`), as rows; none for a file (its rows are not in a recording) or another kind.
    public static func driveScript(_ configuration: PoiseConfiguration) -> [DriveScriptRow] {
        guard configuration.controller.drive.setpointFile.hasPrefix(DriveSchedule.presetPrefix),
              let schedule = try? DriveSchedule.forConfiguration(configuration, configPath: nil) else { return [] }
        return schedule.rows.map { DriveScriptRow(time: $0.time, setpoint: $0.setpoint) }
    }

    /// A ready core for `filter`.
    public static func core<Filter: AttitudeFilter>(_ configuration: PoiseConfiguration, filter: Filter) -> FlightCore<Filter> {
        settings(configuration).core(filter: filter)
    }

    /// `filter.gyro` at the loop's rate: one gyroscope sample reaches the tick per period.
    public static func gyroFilters(_ configuration: PoiseConfiguration) -> GyroFilterBank {
        GyroFilterBank(settings: configuration.filter.gyro, sampleRate: Float(configuration.loop.rateHz))
    }

    /// What SIGHUP may change, from a freshly loaded and validated configuration.
    public static func tuning(_ configuration: PoiseConfiguration) -> ReloadableSettings {
        settings(configuration).tuning
    }

    static func kindIsQuad(_ configuration: PoiseConfiguration) -> Bool {
        configuration.controller.kind == .quadX || configuration.controller.kind == .quadPlus
    }
}
