import PoiseFusion

extension PoiseConfiguration {
    /// `filter`: which attitude filter runs and the settings of each, as the filters take them
    /// (SI units; set through the bindings of ConfigSchema+Filter.swift).
    public struct Filter: Equatable, Sendable {
        public enum Name: String, CaseIterable, Sendable { case poise, mekf, madgwick, mahony, complementary }
        public var name: Name
        /// 9D (true) or 6D (false).
        public var magnetometer: Bool
        public var complementary: ComplementaryFilter.Settings
        public var madgwick: MadgwickFilter.Settings
        public var mahony: MahonyFilter.Settings
        public var mekf: MultiplicativeKalmanFilter.Settings
        public var poise: PoiseFilter.Settings

        init(_ v: ConfigTable) {
            name = v.choice("filter.name")
            magnetometer = v.boolean("filter.magnetometer")
            complementary = ConfigBinding.settings(ConfigSchema.complementaryBindings, from: v, base: .default)
            madgwick = ConfigBinding.settings(ConfigSchema.madgwickBindings, from: v, base: .default)
            mahony = ConfigBinding.settings(ConfigSchema.mahonyBindings, from: v, base: .default)
            mekf = ConfigBinding.settings(ConfigSchema.mekfBindings, from: v, base: .default)
            poise = ConfigBinding.settings(ConfigSchema.poiseBindings, from: v, base: .default)
            // The lever arm is where the sensor is mounted, a fact of the board, so it is a
            // sensor key; only the poise filter compensates it.
            let arm = v.vector3("sensor.lever_arm_m")
            poise.leverArm = SIMD3(Float(arm.x), Float(arm.y), Float(arm.z))
        }

        /// The filter settings follow from the values the configuration compares as a whole.
        public static func == (a: Filter, b: Filter) -> Bool {
            a.name == b.name && a.magnetometer == b.magnetometer
        }
    }
}
