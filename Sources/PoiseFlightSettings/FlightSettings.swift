import PoiseControl
import PoiseDeviceSettings
import PoiseFusion
import PoiseMath
import PoiseOutputs
import PoiseSensors

/// Everything the flight core, the tick and the replay of a recording need from a
/// configuration, resolved: units converted, defaults filled in, the board profile merged,
/// rules applied (a quadrotor never re-arms by itself, no controller means no tilt limit).
/// The host builds it from the YAML configuration (`FlightCoreFactory.settings`), the board
/// reads it from a compiled file (``CompiledSettings``); both build their ``FlightCore`` from
/// it (``core(filter:)``), so the two cannot drift. The live loop's own settings (the bus and
/// the driver's, the switch's and encoders' lines, telemetry, the recorder…) are ``rig``.
public struct FlightSettings: Sendable {
    /// `filter`: the kind and the settings of every filter (the lever arm in the poise filter's).
    public var filter: FilterSettings
    /// `filter.gyro`: the gyroscope's low-pass and notches, run at ``loopRateHz``.
    public var gyroFilters: GyroFilterSettings
    /// `controller`: the kind and its gains (a quadrotor's with its frame).
    public var controller: ControllerSettings
    /// `safety` with `loop.overrun_limit` and the rules the controller kind implies.
    public var safety: SafetySettings
    /// `outputs.channels`, in file order: hardware and mapping.
    public var channels: [OutputChannelSpec]
    /// `frame.output` and `frame.declination_deg` (degrees east).
    public var frame: OutputFrame
    public var declinationDegrees: Float
    /// `loop.gyroscope_bias_time`, s (0: none measured at start-up).
    public var startupBiasDuration: Double
    /// `sensor.calibration` turned through ``mounting`` into the body frame, as the driver
    /// (and a replay of a raw trace) applies it.
    public var calibration: SensorCalibration
    /// `board.mounting`: chip axes to body axes.
    public var mounting: Mounting
    /// `loop.rate_hz`: ticks a second.
    public var loopRateHz: Double
    /// The setpoints a recording's ticks were handed when no pilot's are recorded.
    public var setpoints: SetpointSettings
    /// What the live loop opens and starts around the tick on a real rig.
    public var rig: RigSettings
    /// `outputs.pca9685` and `outputs.pwm_sysfs_root`: where the channels' hardware is.
    public var pca9685: PCA9685.Settings
    public var pwmSysfsRoot: String
    /// The effective configuration as `# config| ` lines, as a recording's header carries it
    /// (`poise compile` fills it): a recording the board makes replays in `poise replay` with
    /// it. Empty in the settings the host builds for itself.
    public var recordedConfiguration: [String]

    public init(filter: FilterSettings = FilterSettings(), gyroFilters: GyroFilterSettings = .default,
                controller: ControllerSettings = .none, safety: SafetySettings = SafetySettings(),
                channels: [OutputChannelSpec] = [], frame: OutputFrame = .axes(.enu), declinationDegrees: Float = 0,
                startupBiasDuration: Double = 0, calibration: SensorCalibration = .identity,
                mounting: Mounting = .identity, loopRateHz: Double = 200, setpoints: SetpointSettings = SetpointSettings(),
                rig: RigSettings = RigSettings(), pca9685: PCA9685.Settings = PCA9685.Settings(),
                pwmSysfsRoot: String = "/sys/class/pwm", recordedConfiguration: [String] = []) {
        self.filter = filter
        self.gyroFilters = gyroFilters
        self.controller = controller
        self.safety = safety
        self.channels = channels
        self.frame = frame
        self.declinationDegrees = declinationDegrees
        self.startupBiasDuration = startupBiasDuration
        self.calibration = calibration
        self.mounting = mounting
        self.loopRateHz = loopRateHz
        self.setpoints = setpoints
        self.rig = rig
        self.pca9685 = pca9685
        self.pwmSysfsRoot = pwmSysfsRoot
        self.recordedConfiguration = recordedConfiguration
    }

    /// The output bank's settings: the channels on their hardware.
    public var outputBank: OutputBankSettings {
        OutputBankSettings(channels: channels, pca9685: pca9685, pwmSysfsRoot: pwmSysfsRoot)
    }
}

/// A filter kind and the settings of every filter, as the configuration's `filter` section
/// gives them.
public struct FilterSettings: Sendable {
    public var kind: FilterKind
    public var complementary = ComplementaryFilter.Settings.default
    public var mahony = MahonyFilter.Settings.default
    public var madgwick = MadgwickFilter.Settings.default
    public var mekf = MultiplicativeKalmanFilter.Settings.default
    public var poise = PoiseFilter.Settings.default

    public init(kind: FilterKind = .default) { self.kind = kind }
}

/// The controller `controller.kind` names, with its settings.
public enum ControllerSettings: Sendable, Equatable {
    case none
    case balance(BalanceSettings)
    /// A quadrotor; the settings carry its frame (x or +).
    case quad(QuadSettings)
}

/// The setpoints a tick is handed when no pilot sends any: the quadrotor's test throttle,
/// and the balancing robot's built-in drive script (a file's rows are not carried: a
/// recording does not hold them either).
public struct SetpointSettings: Sendable, Equatable {
    /// `controller.quad.throttle`, 0…1.
    public var quadThrottle: Float
    /// The drive script's rows, times rising; empty: standing still.
    public var driveScript: [DriveScriptRow]

    public init(quadThrottle: Float = 0, driveScript: [DriveScriptRow] = []) {
        self.quadThrottle = quadThrottle
        self.driveScript = driveScript
    }
}

/// One row of a drive script: from `time` (s since the loop started) on, this setpoint.
public struct DriveScriptRow: Sendable, Equatable {
    public var time: Double
    public var setpoint: DriveSetpoint

    public init(time: Double, setpoint: DriveSetpoint) {
        self.time = time
        self.setpoint = setpoint
    }
}
