import PoiseFusion

extension PoiseConfiguration {
    /// `filter`: which attitude filter runs and the settings of each, as the filters take them
    /// (SI units; set through the bindings of ConfigSchema+Filter.swift).
    public struct Filter: Equatable, Sendable {
        public enum Name: String, CaseIterable, Sendable { case poise, mekf, madgwick, mahony, complementary }
        public var name = Name.poise
        /// 9D (true) or 6D (false).
        public var magnetometer = true
        public var complementary = ComplementaryFilter.Settings.default
        public var madgwick = MadgwickFilter.Settings.default
        public var mahony = MahonyFilter.Settings.default
        public var mekf = MultiplicativeKalmanFilter.Settings.default
        public var poise = PoiseFilter.Settings.default
        /// `filter.gyro`: the gyroscope's low-pass and notches.
        public var gyro = GyroFilterSettings.default

        /// The filter settings follow from the values the configuration compares as a whole.
        public static func == (a: Filter, b: Filter) -> Bool {
            a.name == b.name && a.magnetometer == b.magnetometer
        }
    }
}

extension PoiseConfiguration.Filter {
    init(_ v: ConfigTable) { self = ConfigBinding.settings(Self.bindings, from: v, base: Self()) }

    /// Every `filter` key, in file order: which filter, 9D or 6D, then each filter's settings.
    static let bindings: [ConfigBinding<Self>] = {
        let d = Self()
        let choice: [ConfigBinding<Self>] = [
            .choice("filter.name", \.name, defaults: d, doc: "Which attitude filter runs."),
            .boolean("filter.magnetometer", \.magnetometer, defaults: d,
                     doc: "Fuse the magnetometer (9D, heading from magnetic north) or not (6D, heading drifts).").outsideTheTick("9D or 6D: which readings the loop hands the filter"),
        ]
        return choice + ConfigSchema.complementaryBindings.map { $0.lifted(\.complementary) }
            + ConfigSchema.madgwickBindings.map { $0.lifted(\.madgwick) } + ConfigSchema.mahonyBindings.map { $0.lifted(\.mahony) }
            + ConfigSchema.mekfBindings.map { $0.lifted(\.mekf) } + ConfigSchema.poiseBindings.map { $0.lifted(\.poise) }
            + ConfigSchema.gyroFilterBindings.map { $0.lifted(\.gyro) }
    }()
}
