import Foundation

/// A validated Poise configuration, one nested struct per section of the file.
///
/// Values are in the units the file uses (documented on each property and in
/// `docs/config.md`); properties ending in `Radians…` give the SI form where the file uses
/// degrees. Keys without a typed property yet are readable by path through ``values``.
public struct PoiseConfiguration: Equatable, Sendable {
    public var board: Board
    public var sensor: Sensor
    public var filter: Filter
    public var frame: Frame
    public var controller: Controller
    public var outputs: Outputs
    public var safety: Safety
    public var loop: Loop
    /// Every key by dotted path, as loaded (defaults filled in), e.g. `values.number("loop.rate_hz")`.
    public var values: ConfigTable

    /// The configuration of an empty file.
    public static let `default` = PoiseConfiguration(values: ConfigSchema.defaults)

    /// Builds the typed view of values that have passed ``ConfigParser`` (every key present).
    public init(values v: ConfigTable) {
        values = v
        board = Board(
            kind: v.choice("board.kind"), i2cBus: v.string("board.i2c_bus"), address: v.integer("board.address"),
            mounting: (try? AxisMapping.parse(v.string("board.mounting")).get()) ?? .identity,
            gpioChip: v.string("board.gpio_chip"))
        sensor = Sensor(
            accelerometerRangeG: v.integer("sensor.accelerometer_range_g"),
            gyroscopeRangeDegreesPerSecond: v.integer("sensor.gyroscope_range_dps"),
            dlpfHz: v.integer("sensor.dlpf_hz"), sampleRateHz: v.number("sensor.sample_rate_hz"),
            magnetometer: v.boolean("sensor.magnetometer"), magnetometerRateHz: v.integer("sensor.magnetometer_rate_hz"),
            fifo: v.boolean("sensor.fifo"), readRetries: v.integer("sensor.read_retries"),
            lostAfterFailures: v.integer("sensor.lost_after_failures"),
            calibration: Sensor.Calibration(
                gyroscopeBias: v.vector3("sensor.calibration.gyroscope_bias"),
                accelerometerOffset: v.vector3("sensor.calibration.accelerometer_offset"),
                accelerometerScale: v.vector3("sensor.calibration.accelerometer_scale"),
                magnetometerHardIron: v.vector3("sensor.calibration.magnetometer_hard_iron"),
                magnetometerSoftIron: v.matrix3("sensor.calibration.magnetometer_soft_iron")))
        filter = Filter(
            name: v.choice("filter.name"), magnetometer: v.boolean("filter.magnetometer"),
            complementary: .init(timeConstant: v.number("filter.complementary.time_constant")),
            madgwick: .init(beta: v.number("filter.madgwick.beta"), startupGain: v.number("filter.madgwick.startup_gain"),
                            startupTime: v.number("filter.madgwick.startup_time")),
            mahony: .init(kp: v.number("filter.mahony.kp"), ki: v.number("filter.mahony.ki")),
            mekf: .init(gyroscopeNoise: v.number("filter.mekf.gyroscope_noise"),
                        gyroscopeBiasNoise: v.number("filter.mekf.gyroscope_bias_noise"),
                        accelerometerNoise: v.number("filter.mekf.accelerometer_noise"),
                        magnetometerNoise: v.number("filter.mekf.magnetometer_noise")),
            poise: .init(accelerometerTimeConstant: v.number("filter.poise.accelerometer_time_constant"),
                         magnetometerTimeConstant: v.number("filter.poise.magnetometer_time_constant"),
                         restBiasEstimation: v.boolean("filter.poise.rest_bias_estimation"),
                         motionBiasEstimation: v.boolean("filter.poise.motion_bias_estimation"),
                         magneticDisturbanceRejection: v.boolean("filter.poise.magnetic_disturbance_rejection"),
                         restGyroscopeThresholdDegreesPerSecond: v.number("filter.poise.rest_gyroscope_threshold"),
                         restAccelerometerThreshold: v.number("filter.poise.rest_accelerometer_threshold"),
                         restTime: v.number("filter.poise.rest_time"),
                         biasLimitDegreesPerSecond: v.number("filter.poise.bias_limit")))
        frame = Frame(reference: v.choice("frame.reference"), axes: v.choice("frame.axes"),
                      declinationDegrees: v.number("frame.declination_deg"))
        controller = Controller(
            kind: v.choice("controller.kind"),
            pid: .init(kp: v.number("controller.pid.kp"), ki: v.number("controller.pid.ki"),
                       kd: v.number("controller.pid.kd"), setpointDegrees: v.number("controller.pid.setpoint_deg"),
                       outputLimit: v.number("controller.pid.output_limit")))
        outputs = Outputs(
            pwm: v.list("outputs.pwm").map {
                PWMOutput(chip: $0.integer("chip"), channel: $0.integer("channel"), periodMicroseconds: $0.integer("period_us"),
                          safeDutyMicroseconds: $0.integer("safe_duty_us"), source: $0.choice("source"))
            },
            gpio: v.list("outputs.gpio").map {
                GPIOOutput(line: $0.integer("line"), safeValue: $0.integer("safe_value"), source: $0.choice("source"))
            })
        safety = Safety(maxTiltDegrees: v.number("safety.max_tilt_deg"),
                        sensorTimeoutMilliseconds: v.number("safety.sensor_timeout_ms"))
        loop = Loop(rateHz: v.number("loop.rate_hz"), overrunLimit: v.integer("loop.overrun_limit"),
                    realtimePriority: v.integer("loop.realtime_priority"), cpu: v.integer("loop.cpu"))
    }

    /// Parses configuration text; `file` names it in error messages.
    public static func parse(text: String, file: String) throws(ConfigErrors) -> PoiseConfiguration {
        PoiseConfiguration(values: try ConfigParser.parse(text: text, file: file))
    }

    /// Reads and parses the file at `path`. Every problem is reported, each with its line.
    public static func load(path: String) throws(ConfigErrors) -> PoiseConfiguration {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ConfigErrors([ConfigError(file: path, message: "no such file")])
        }
        guard !isDirectory.boolValue else {
            throw ConfigErrors([ConfigError(file: path, message: "is a directory, not a configuration file")])
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigErrors([ConfigError(file: path, message: "cannot be read (check its permissions)")])
        }
        guard let text = String(bytes: data, encoding: .utf8), !text.contains("\u{0}") else {
            throw ConfigErrors([ConfigError(file: path, message: "is not UTF-8 text")])
        }
        return try parse(text: text, file: path)
    }
}

extension ConfigTable {
    /// An enumeration key as its Swift enum; the parser has checked the word is a case.
    func choice<T: RawRepresentable>(_ path: String) -> T where T.RawValue == String {
        guard let value = T(rawValue: string(path)) else { preconditionFailure("`\(path)`: no case \(string(path))") }
        return value
    }
}
