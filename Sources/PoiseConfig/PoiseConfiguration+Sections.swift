extension PoiseConfiguration {
    /// `board`: where the chip is and how it is mounted.
    public struct Board: Equatable, Sendable {
        public enum Kind: String, CaseIterable, Sendable { case sim, linux }
        public var kind: Kind
        /// I²C bus device, e.g. `/dev/i2c-1`.
        public var i2cBus: String
        /// I²C bus clock, Hz.
        public var i2cClockHz: Int
        /// 7-bit I²C address: 0x68 or 0x69.
        public var address: Int
        /// Chip axes to body axes.
        public var mounting: AxisMapping
        /// GPIO chip name, path or label, e.g. `gpiochip0` or `pinctrl-rp1`.
        public var gpioChip: String
        /// Hardware PWM chip number of the header pins.
        public var pwmChip: Int
        /// The board profile this file builds on (`board.profile`), empty for none.
        public var profile: String

        init(_ v: ConfigTable) {
            kind = v.choice("board.kind")
            i2cBus = v.string("board.i2c_bus")
            i2cClockHz = v.integer("board.i2c_clock_hz")
            address = v.integer("board.address")
            mounting = (try? AxisMapping.parse(v.string("board.mounting")).get()) ?? .identity
            gpioChip = v.string("board.gpio_chip")
            pwmChip = v.integer("board.pwm_chip")
            profile = v.string("board.profile")
        }
    }

    /// `sensor`: MPU-9250 and AK8963 settings.
    public struct Sensor: Equatable, Sendable {
        /// Accelerometer full scale, g: 2, 4, 8 or 16.
        public var accelerometerRangeG: Int
        /// Gyroscope full scale, °/s: 250, 500, 1000 or 2000.
        public var gyroscopeRangeDegreesPerSecond: Int
        /// Gyroscope DLPF bandwidth, Hz.
        public var dlpfHz: Int
        /// Output data rate, Hz.
        public var sampleRateHz: Double
        public var magnetometer: Bool
        /// AK8963 rate, Hz: 8 or 100.
        public var magnetometerRateHz: Int
        public var fifo: Bool
        public var readRetries: Int
        public var lostAfterFailures: Int
        public var calibration: Calibration

        /// `sensor.calibration`, chip frame.
        public struct Calibration: Equatable, Sendable {
            /// rad/s, subtracted.
            public var gyroscopeBias: SIMD3<Double>
            /// m/s², subtracted before scaling.
            public var accelerometerOffset: SIMD3<Double>
            /// Per-axis factors.
            public var accelerometerScale: SIMD3<Double>
            /// µT, subtracted.
            public var magnetometerHardIron: SIMD3<Double>
            /// Applied after the hard-iron offset.
            public var magnetometerSoftIron: ConfigMatrix3
        }

        init(_ v: ConfigTable) {
            accelerometerRangeG = v.integer("sensor.accelerometer_range_g")
            gyroscopeRangeDegreesPerSecond = v.integer("sensor.gyroscope_range_dps")
            dlpfHz = v.integer("sensor.dlpf_hz")
            sampleRateHz = v.number("sensor.sample_rate_hz")
            magnetometer = v.boolean("sensor.magnetometer")
            magnetometerRateHz = v.integer("sensor.magnetometer_rate_hz")
            fifo = v.boolean("sensor.fifo")
            readRetries = v.integer("sensor.read_retries")
            lostAfterFailures = v.integer("sensor.lost_after_failures")
            calibration = Calibration(
                gyroscopeBias: v.vector3("sensor.calibration.gyroscope_bias"),
                accelerometerOffset: v.vector3("sensor.calibration.accelerometer_offset"),
                accelerometerScale: v.vector3("sensor.calibration.accelerometer_scale"),
                magnetometerHardIron: v.vector3("sensor.calibration.magnetometer_hard_iron"),
                magnetometerSoftIron: v.matrix3("sensor.calibration.magnetometer_soft_iron"))
        }
    }

    /// `frame`: the reference frame attitudes are reported in.
    public struct Frame: Equatable, Sendable {
        /// World axes (north = magnetic north) or Core Motion's `CMAttitudeReferenceFrame` cases.
        public enum Output: String, CaseIterable, Sendable {
            case enu, nwu, ned
            case xArbitraryZVertical, xArbitraryCorrectedZVertical, xMagneticNorthZVertical, xTrueNorthZVertical
        }
        public var output: Output
        /// °, east positive.
        public var declinationDegrees: Double
        /// rad, east positive.
        public var declination: Double { declinationDegrees * .pi / 180 }

        init(_ v: ConfigTable) {
            output = v.choice("frame.output")
            declinationDegrees = v.number("frame.declination_deg")
        }
    }
}
