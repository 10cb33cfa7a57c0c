extension PoiseConfiguration {
    /// `board`: where the chip is and how it is mounted.
    public struct Board: Equatable, Sendable {
        public enum Kind: String, CaseIterable, Sendable { case sim, linux }
        public var kind: Kind
        /// I²C bus device, e.g. `/dev/i2c-1`.
        public var i2cBus: String
        /// 7-bit I²C address: 0x68 or 0x69.
        public var address: Int
        /// Chip axes to body axes.
        public var mounting: AxisMapping
        /// GPIO chip name, e.g. `gpiochip0`.
        public var gpioChip: String
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
    }

    /// `filter`: which attitude filter runs and its parameters.
    public struct Filter: Equatable, Sendable {
        public enum Name: String, CaseIterable, Sendable { case poise, mekf, madgwick, mahony, complementary }
        public var name: Name
        /// 9D (true) or 6D (false).
        public var magnetometer: Bool
        public var complementary: Complementary
        public var madgwick: Madgwick
        public var mahony: Mahony
        public var mekf: MEKF
        public var poise: Poise

        public struct Complementary: Equatable, Sendable {
            /// s.
            public var timeConstant: Double
        }

        public struct Madgwick: Equatable, Sendable {
            public var beta: Double
            public var startupGain: Double
            /// s.
            public var startupTime: Double
        }

        public struct Mahony: Equatable, Sendable {
            public var kp: Double
            public var ki: Double
        }

        public struct MEKF: Equatable, Sendable {
            /// rad/s.
            public var gyroscopeNoise: Double
            /// rad/s².
            public var gyroscopeBiasNoise: Double
            /// m/s².
            public var accelerometerNoise: Double
            /// µT.
            public var magnetometerNoise: Double
        }

        public struct Poise: Equatable, Sendable {
            /// s.
            public var accelerometerTimeConstant: Double
            /// s.
            public var magnetometerTimeConstant: Double
            public var restBiasEstimation: Bool
            public var motionBiasEstimation: Bool
            public var magneticDisturbanceRejection: Bool
            /// °/s, as written in the file.
            public var restGyroscopeThresholdDegreesPerSecond: Double
            /// m/s².
            public var restAccelerometerThreshold: Double
            /// s.
            public var restTime: Double
            /// °/s, as written in the file.
            public var biasLimitDegreesPerSecond: Double

            /// rad/s.
            public var restGyroscopeThreshold: Double { restGyroscopeThresholdDegreesPerSecond * .pi / 180 }
            /// rad/s.
            public var biasLimit: Double { biasLimitDegreesPerSecond * .pi / 180 }
        }
    }

    /// `frame`: the reference frame attitudes are reported in.
    public struct Frame: Equatable, Sendable {
        /// Core Motion's `CMAttitudeReferenceFrame` cases.
        public enum Reference: String, CaseIterable, Sendable {
            case xArbitraryZVertical, xArbitraryCorrectedZVertical, xMagneticNorthZVertical, xTrueNorthZVertical
        }
        public enum Axes: String, CaseIterable, Sendable { case enu, nwu, ned }
        public var reference: Reference
        public var axes: Axes
        /// °, east positive.
        public var declinationDegrees: Double
        /// rad, east positive.
        public var declination: Double { declinationDegrees * .pi / 180 }
    }

    /// `controller`.
    public struct Controller: Equatable, Sendable {
        public enum Kind: String, CaseIterable, Sendable { case none, pid }
        public var kind: Kind
        public var pid: PID

        public struct PID: Equatable, Sendable {
            public var kp: Double
            public var ki: Double
            public var kd: Double
            /// °.
            public var setpointDegrees: Double
            /// Output clamp, ±.
            public var outputLimit: Double
        }
    }

    /// `outputs`.
    public struct Outputs: Equatable, Sendable {
        public var pwm: [PWMOutput]
        public var gpio: [GPIOOutput]
    }

    /// One element of `outputs.pwm`.
    public struct PWMOutput: Equatable, Sendable {
        public enum Source: String, CaseIterable, Sendable { case pitch, roll, yaw, controller }
        public var chip: Int
        public var channel: Int
        /// µs.
        public var periodMicroseconds: Int
        /// µs.
        public var safeDutyMicroseconds: Int
        public var source: Source
    }

    /// One element of `outputs.gpio`.
    public struct GPIOOutput: Equatable, Sendable {
        public enum Source: String, CaseIterable, Sendable { case faceDown, fault, atRest }
        public var line: Int
        /// 0 or 1.
        public var safeValue: Int
        public var source: Source
    }

    /// `safety`.
    public struct Safety: Equatable, Sendable {
        /// °.
        public var maxTiltDegrees: Double
        /// ms.
        public var sensorTimeoutMilliseconds: Double
    }

    /// `loop`.
    public struct Loop: Equatable, Sendable {
        /// Hz.
        public var rateHz: Double
        public var overrunLimit: Int
        /// SCHED_FIFO priority; 0 = normal scheduling.
        public var realtimePriority: Int
        /// −1 = any CPU.
        public var cpu: Int
    }
}
