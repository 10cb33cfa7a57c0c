import PoiseDeviceSettings

// The `board`, `sensor` and `frame` sections: each field is declared with its default, and
// bound once to its key (path, type, range, unit, documentation). The schema, the generated
// example file and docs, and the typed view all come from these bindings. The `sensor` keys
// but the calibration are bound straight to the driver's `MPU9250Settings` (PoiseDeviceSettings),
// their defaults being its own; PoiseSettings adds what the `board` and `loop` sections set.

extension PoiseConfiguration {
    /// `board`: where the chip is and how it is mounted.
    public struct Board: Equatable, Sendable {
        public enum Kind: String, CaseIterable, Sendable { case sim, linux }
        /// The board profile this file builds on (`board.profile`), empty for none.
        public var profile = ""
        public var kind = Kind.sim
        /// I²C bus device, e.g. `/dev/i2c-1`.
        public var i2cBus = "/dev/i2c-1"
        /// 7-bit I²C address: 0x68 or 0x69.
        public var address = 0x68
        /// Chip axes to body axes.
        public var mounting = AxisMapping.identity
        /// I²C bus clock, Hz.
        public var i2cClockHz = 400_000
        /// GPIO chip name, path or label, e.g. `gpiochip0` or `pinctrl-rp1`.
        public var gpioChip = "gpiochip0"
        /// Hardware PWM chip number of the header pins.
        public var pwmChip = 0
    }

    /// `sensor`: MPU-9250 and AK8963 settings.
    public struct Sensor: Equatable, Sendable {
        /// Ranges, bandwidth, rates, FIFO and failure policy, bound straight to the driver's
        /// settings (their defaults are the driver's own). PoiseSettings adds what other
        /// sections set: `board.address`, `board.mounting`, `loop.rate_hz` as the tick rate, and
        /// the accelerometer bandwidth nearest the gyroscope's.
        public var driver = MPU9250Settings()
        /// m, body frame: where the accelerometer sits relative to the centre of rotation (the
        /// poise filter's compensation, not the driver's: FilterSettings hands it over).
        public var leverArmMeters = SIMD3<Double>(0, 0, 0)
        public var calibration = Calibration()

        /// Whether the AK8963 is read (`sensor.magnetometer`).
        public var magnetometer: Bool { driver.magnetometerMode != .powerDown }

        /// `sensor.calibration`, chip frame.
        public struct Calibration: Equatable, Sendable {
            /// rad/s, subtracted.
            public var gyroscopeBias = SIMD3<Double>(0, 0, 0)
            /// m/s², subtracted before scaling.
            public var accelerometerOffset = SIMD3<Double>(0, 0, 0)
            /// Per-axis factors.
            public var accelerometerScale = SIMD3<Double>(1, 1, 1)
            /// µT, subtracted.
            public var magnetometerHardIron = SIMD3<Double>(0, 0, 0)
            /// Applied after the hard-iron offset.
            public var magnetometerSoftIron = ConfigMatrix3.identity
        }
    }

    /// `frame`: the reference frame attitudes are reported in.
    public struct Frame: Equatable, Sendable {
        /// World axes (north = magnetic north) or Core Motion's `CMAttitudeReferenceFrame` cases.
        public enum Output: String, CaseIterable, Sendable {
            case enu, nwu, ned
            case xArbitraryZVertical, xArbitraryCorrectedZVertical, xMagneticNorthZVertical, xTrueNorthZVertical
        }
        public var output = Output.enu
        /// °, east positive.
        public var declinationDegrees: Double = 0
        /// rad, east positive.
        public var declination: Double { declinationDegrees * .pi / 180 }
    }
}

extension PoiseConfiguration.Board {
    init(_ v: ConfigTable) { self = ConfigBinding.settings(Self.bindings, from: v, base: Self()) }

    static let bindings: [ConfigBinding<Self>] = {
        let d = Self()
        return [
            .string("board.profile", \.profile, defaults: d,
                    doc: "Board profile whose values stand in for the defaults of every key this file leaves out: a name from boards/ (`raspberry-pi-4`, `raspberry-pi-5`, `sim`, …) or a path relative to this file; empty for none.").outsideTheTick("loading: the profile's values stand in for the defaults"),
            .choice("board.kind", \.kind, defaults: d, doc: "`sim` runs the simulated MPU-9250; `linux` talks to the real chip.").outsideTheTick("which board the loop opens"),
            .string("board.i2c_bus", \.i2cBus, defaults: d, doc: "I²C bus device the MPU-9250 is on.").outsideTheTick("the bus the Linux board opens"),
            .integer("board.address", \.address, choices: [0x68, 0x69], hexadecimal: true, defaults: d,
                     doc: "I²C address of the MPU-9250 (0x69 when AD0 is high)."),
            .axisMapping("board.mounting", \.mounting, defaults: d,
                         doc: "Chip axis read by each body axis x, y, z: `+y-x+z` is the chip turned 90° about z."),
            .integer("board.i2c_clock_hz", \.i2cClockHz, choices: [100_000, 400_000], unit: "Hz", defaults: d,
                     doc: "I²C bus clock (dtparam=i2c_arm_baudrate); bounds the loop rate the bus can carry (docs/wiring.md).").outsideTheTick("`poise check`'s bus budget"),
            .string("board.gpio_chip", \.gpioChip, defaults: d,
                    doc: "GPIO chip holding the output lines: a name (`gpiochip0`), a path (`/dev/gpiochip0`) or a label (`pinctrl-rp1`, which finds the Raspberry Pi 5 header whatever its number)."),
            .integer("board.pwm_chip", \.pwmChip, range: 0...1023, defaults: d,
                     doc: "Hardware PWM chip of the header pins, as in /sys/class/pwm/pwmchipN."),
        ]
    }()
}

extension PoiseConfiguration.Sensor {
    init(_ v: ConfigTable) { self = ConfigBinding.settings(Self.bindings, from: v, base: Self()) }

    static let bindings: [ConfigBinding<Self>] = {
        let d = Self()
        return [
            .integer("sensor.accelerometer_range_g", \.driver.accelerometerRange, valued: { Int($0.g) }, unit: "g", defaults: d,
                     doc: "Accelerometer full-scale range."),
            .integer("sensor.gyroscope_range_dps", \.driver.gyroscopeRange, valued: { Int($0.degreesPerSecond) }, unit: "°/s", defaults: d,
                     doc: "Gyroscope full-scale range."),
            .integer("sensor.dlpf_hz", \.driver.gyroscopeBandwidth, valued: { Int($0.hertz) }, unit: "Hz", defaults: d,
                     doc: "Gyroscope digital low-pass filter bandwidth; the accelerometer gets its nearest (218, 99, 45, 21, 10 or 5 Hz)."),
            // After dlpf_hz: the divider divides the internal rate the bandwidth chooses.
            sampleRate(defaults: d),
            // The two magnetometer keys set one field, the AK8963 mode: off, or on at a rate.
            magnetometerSwitch(defaults: d),
            magnetometerRate(defaults: d),
            .boolean("sensor.fifo", \.driver.useFIFO, defaults: d, doc: "Read samples through the chip FIFO instead of the data registers."),
            .integer("sensor.read_retries", \.driver.retries, range: 0...10, zeroTurnsOff: true, defaults: d,
                     doc: "Retries of a failed I²C read within one tick."),
            .integer("sensor.lost_after_failures", \.driver.lostAfterFailures, range: 1...1000, defaults: d,
                     doc: "Consecutive failed ticks before the sensor counts as lost."),
            .vector3("sensor.lever_arm_m", \.leverArmMeters, unit: "m", defaults: d,
                     doc: "Where the accelerometer sits relative to the centre of rotation, in the body frame (after board.mounting): the poise filter subtracts the tangential and centripetal accelerations rotation gives it there. [0, 0, 0] (at the centre) turns the compensation off."),
            .vector3("sensor.calibration.gyroscope_bias", \.calibration.gyroscopeBias, unit: "rad/s", defaults: d,
                     doc: "Subtracted from gyroscope readings."),
            .vector3("sensor.calibration.accelerometer_offset", \.calibration.accelerometerOffset, unit: "m/s²", defaults: d,
                     doc: "Subtracted from accelerometer readings before scaling."),
            .vector3("sensor.calibration.accelerometer_scale", \.calibration.accelerometerScale, defaults: d,
                     doc: "Per-axis factors applied after the offset."),
            .vector3("sensor.calibration.magnetometer_hard_iron", \.calibration.magnetometerHardIron, unit: "µT", defaults: d,
                     doc: "Subtracted from magnetometer readings."),
            .matrix3("sensor.calibration.magnetometer_soft_iron", \.calibration.magnetometerSoftIron, defaults: d,
                     doc: "Applied to magnetometer readings after the hard-iron offset."),
        ]
    }()

    /// `sensor.sample_rate_hz`, bound to the SMPLRT_DIV divider whose rate is nearest; its
    /// default is the driver's default output rate.
    static func sampleRate(defaults d: Self) -> ConfigBinding<Self> {
        let path = "sensor.sample_rate_hz"
        let key = ConfigKey(path: path, type: .number(range: 4...1000), default: .number(d.driver.outputRate), unit: "Hz",
                            doc: "Output data rate: the internal rate (1 kHz; 8 kHz at dlpf_hz 250) / (1 + divider), with the divider giving the nearest rate. Without the FIFO it must be at least the loop rate (each tick reads the newest sample).")
        return ConfigBinding(key: key) { s, values in
            s.driver.sampleRateDivider = SensorRate.divider(nearest: values.number(path), internalRate: s.driver.gyroscopeBandwidth.internalRate)
        }
    }

    /// `sensor.magnetometer`: `false` powers the AK8963 down (6D).
    static func magnetometerSwitch(defaults d: Self) -> ConfigBinding<Self> {
        let path = "sensor.magnetometer"
        let key = ConfigKey(path: path, type: .boolean, default: .boolean(d.magnetometer), doc: "Read the AK8963 magnetometer.")
        return ConfigBinding(key: key) { s, values in
            if !values.boolean(path) { s.driver.magnetometerMode = .powerDown }
        }
    }

    /// `sensor.magnetometer_rate_hz`: the continuous mode of that rate, unless switched off.
    static func magnetometerRate(defaults d: Self) -> ConfigBinding<Self> {
        let path = "sensor.magnetometer_rate_hz"
        let key = ConfigKey(path: path, type: .integerChoice([8, 100], hexadecimal: false),
                            default: .integer(Int(d.driver.magnetometerMode.rate)), unit: "Hz", doc: "AK8963 continuous measurement rate.")
        return ConfigBinding(key: key) { s, values in
            guard s.driver.magnetometerMode != .powerDown else { return }
            s.driver.magnetometerMode = values.integer(path) == 8 ? .continuous8Hz : .continuous100Hz
        }
    }
}

extension PoiseConfiguration.Frame {
    init(_ v: ConfigTable) { self = ConfigBinding.settings(Self.bindings, from: v, base: Self()) }

    static let bindings: [ConfigBinding<Self>] = {
        let d = Self()
        return [
            .choice("frame.output", \.output, defaults: d,
                    doc: "World frame of reported attitudes: axes east-north-up, north-west-up or north-east-down (north = magnetic north), or a Core Motion CMAttitudeReferenceFrame."),
            .number("frame.declination_deg", \.declinationDegrees, range: -180...180, unit: "°", defaults: d,
                    doc: "Magnetic declination, east positive; used by xTrueNorthZVertical."),
        ]
    }()
}
