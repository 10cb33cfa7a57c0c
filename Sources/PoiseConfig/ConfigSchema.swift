/// Every key of a Poise configuration file.
///
/// One line per key: the loader, `poise check --print-defaults`, `boards/poise.example.yaml`
/// and the typed ``PoiseConfiguration`` all follow from this table. Order here is the order of
/// the generated file. Units are those a person writes; code converts to SI where it reads them.
public enum ConfigSchema {
    /// Sections and subsections, with the comment printed above them.
    public static let groups: [ConfigGroup] = [
        ConfigGroup("board", doc: "Where the MPU-9250 is and how it is mounted."),
        ConfigGroup("sensor", doc: "MPU-9250 and AK8963 settings."),
        ConfigGroup("sensor.calibration", doc: "Corrections applied to raw readings, chip frame (from `poise calibrate`)."),
    ] + filterGroups + [
        ConfigGroup("frame", doc: "Reference frame the attitude is reported in (Core Motion names)."),
    ] + controlGroups + outputGroups + loopGroups + telemetryGroups

    /// All keys, in file order.
    public static let keys: [ConfigKey] = hardwareKeys + filterKeys + applicationKeys + controlKeys + outputKeys + loopKeys + telemetryKeys

    static let hardwareKeys: [ConfigKey] = [
        // board
        ConfigKey("board.profile", .string, default: "", doc: "Board profile whose values stand in for the defaults of every key this file leaves out: a name from boards/ (`raspberry-pi-4`, `raspberry-pi-5`, `sim`, …) or a path relative to this file; empty for none."),
        ConfigKey("board.kind", .enumeration(["sim", "linux"]), default: "sim", doc: "`sim` runs the simulated MPU-9250; `linux` talks to the real chip."),
        ConfigKey("board.i2c_bus", .string, default: "/dev/i2c-1", doc: "I²C bus device the MPU-9250 is on."),
        ConfigKey("board.address", .integerChoice([0x68, 0x69], hexadecimal: true), default: 0x68, doc: "I²C address of the MPU-9250 (0x69 when AD0 is high)."),
        ConfigKey("board.mounting", .axisMapping, default: "+x+y+z", doc: "Chip axis read by each body axis x, y, z: `+y-x+z` is the chip turned 90° about z."),
        ConfigKey("board.i2c_clock_hz", .integerChoice([100_000, 400_000]), default: 400_000, unit: "Hz", doc: "I²C bus clock (dtparam=i2c_arm_baudrate); bounds the loop rate the bus can carry (docs/wiring.md)."),
        ConfigKey("board.gpio_chip", .string, default: "gpiochip0", doc: "GPIO chip holding the output lines: a name (`gpiochip0`), a path (`/dev/gpiochip0`) or a label (`pinctrl-rp1`, which finds the Raspberry Pi 5 header whatever its number)."),
        ConfigKey("board.pwm_chip", .integer(range: 0...1023), default: 0, doc: "Hardware PWM chip of the header pins, as in /sys/class/pwm/pwmchipN."),
        // sensor
        ConfigKey("sensor.accelerometer_range_g", .integerChoice([2, 4, 8, 16]), default: 16, unit: "g", doc: "Accelerometer full-scale range."),
        ConfigKey("sensor.gyroscope_range_dps", .integerChoice([250, 500, 1000, 2000]), default: 2000, unit: "°/s", doc: "Gyroscope full-scale range."),
        ConfigKey("sensor.dlpf_hz", .integerChoice([250, 184, 92, 41, 20, 10, 5]), default: 92, unit: "Hz", doc: "Gyroscope digital low-pass filter bandwidth; the accelerometer gets its nearest (218, 99, 45, 21, 10 or 5 Hz)."),
        ConfigKey("sensor.sample_rate_hz", .number(range: 4...1000), default: 1000, unit: "Hz", doc: "Output data rate: the internal rate (1 kHz; 8 kHz at dlpf_hz 250) / (1 + divider), with the divider giving the nearest rate. Without the FIFO it must be at least the loop rate (each tick reads the newest sample)."),
        ConfigKey("sensor.magnetometer", .boolean, default: true, doc: "Read the AK8963 magnetometer."),
        ConfigKey("sensor.magnetometer_rate_hz", .integerChoice([8, 100]), default: 100, unit: "Hz", doc: "AK8963 continuous measurement rate."),
        ConfigKey("sensor.fifo", .boolean, default: false, doc: "Read samples through the chip FIFO instead of the data registers."),
        ConfigKey("sensor.read_retries", .integer(range: 0...10), default: 1, doc: "Retries of a failed I²C read within one tick."),
        ConfigKey("sensor.lost_after_failures", .integer(range: 1...1000), default: 10, doc: "Consecutive failed ticks before the sensor counts as lost."),
        ConfigKey("sensor.lever_arm_m", .vector3, default: .vector3([0, 0, 0]), unit: "m", doc: "Where the accelerometer sits relative to the centre of rotation, in the body frame (after board.mounting): the poise filter subtracts the tangential and centripetal accelerations rotation gives it there. [0, 0, 0] (at the centre) turns the compensation off."),
        ConfigKey("sensor.calibration.gyroscope_bias", .vector3, default: .vector3([0, 0, 0]), unit: "rad/s", doc: "Subtracted from gyroscope readings."),
        ConfigKey("sensor.calibration.accelerometer_offset", .vector3, default: .vector3([0, 0, 0]), unit: "m/s²", doc: "Subtracted from accelerometer readings before scaling."),
        ConfigKey("sensor.calibration.accelerometer_scale", .vector3, default: .vector3([1, 1, 1]), doc: "Per-axis factors applied after the offset."),
        ConfigKey("sensor.calibration.magnetometer_hard_iron", .vector3, default: .vector3([0, 0, 0]), unit: "µT", doc: "Subtracted from magnetometer readings."),
        ConfigKey("sensor.calibration.magnetometer_soft_iron", .matrix3, default: .matrix3(.identity), doc: "Applied to magnetometer readings after the hard-iron offset."),
    ]

    static let applicationKeys: [ConfigKey] = [
        // frame
        ConfigKey("frame.output", .enumeration(["enu", "nwu", "ned", "xArbitraryZVertical", "xArbitraryCorrectedZVertical", "xMagneticNorthZVertical", "xTrueNorthZVertical"]), default: "enu", doc: "World frame of reported attitudes: axes east-north-up, north-west-up or north-east-down (north = magnetic north), or a Core Motion CMAttitudeReferenceFrame."),
        ConfigKey("frame.declination_deg", .number(range: -180...180), default: 0, unit: "°", doc: "Magnetic declination, east positive; used by xTrueNorthZVertical."),
    ]

    /// The values of a file with nothing in it.
    public static let defaults: ConfigTable = {
        var table = ConfigTable()
        for key in keys {
            if let value = key.defaultValue { table[key.path] = value }
        }
        return table
    }()

    /// The key at `path`, if the schema has one.
    public static func key(_ path: String) -> ConfigKey? {
        keys.first { $0.path == path }
    }
}
