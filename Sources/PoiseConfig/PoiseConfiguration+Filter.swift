extension PoiseConfiguration {
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

        init(_ v: ConfigTable) {
            name = v.choice("filter.name")
            magnetometer = v.boolean("filter.magnetometer")
            complementary = Complementary(timeConstant: v.number("filter.complementary.time_constant"))
            madgwick = Madgwick(
                beta: v.number("filter.madgwick.beta"),
                startupGain: v.number("filter.madgwick.startup_gain"),
                startupTime: v.number("filter.madgwick.startup_time"))
            mahony = Mahony(kp: v.number("filter.mahony.kp"), ki: v.number("filter.mahony.ki"))
            mekf = MEKF(
                gyroscopeNoise: v.number("filter.mekf.gyroscope_noise"),
                gyroscopeBiasNoise: v.number("filter.mekf.gyroscope_bias_noise"),
                accelerometerNoise: v.number("filter.mekf.accelerometer_noise"),
                magnetometerNoise: v.number("filter.mekf.magnetometer_noise"))
            poise = Poise(
                accelerometerTimeConstant: v.number("filter.poise.accelerometer_time_constant"),
                magnetometerTimeConstant: v.number("filter.poise.magnetometer_time_constant"),
                restBiasEstimation: v.boolean("filter.poise.rest_bias_estimation"),
                motionBiasEstimation: v.boolean("filter.poise.motion_bias_estimation"),
                magneticDisturbanceRejection: v.boolean("filter.poise.magnetic_disturbance_rejection"),
                restGyroscopeThresholdDegreesPerSecond: v.number("filter.poise.rest_gyroscope_threshold"),
                restAccelerometerThreshold: v.number("filter.poise.rest_accelerometer_threshold"),
                restTime: v.number("filter.poise.rest_time"),
                biasLimitDegreesPerSecond: v.number("filter.poise.bias_limit"))
        }
    }
}
