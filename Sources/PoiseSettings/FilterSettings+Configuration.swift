import PoiseConfig
import PoiseFusion
import PoiseFlightSettings

extension FilterSettings {
    /// The `filter` section of a configuration: the settings its keys are bound to
    /// (ConfigSchema+Filter.swift says where each key lands, in which unit).
    public init(configuration: PoiseConfiguration) {
        let filter = configuration.filter
        self.init(kind: FilterKind(rawValue: filter.name.rawValue) ?? .default)
        complementary = filter.complementary
        mahony = filter.mahony
        madgwick = filter.madgwick
        mekf = filter.mekf
        poise = filter.poise
        // The lever arm is where the sensor is mounted, a fact of the board, so it is a
        // sensor key; only the poise filter compensates it.
        let arm = configuration.sensor.leverArmMeters
        poise.leverArm = SIMD3(Float(arm.x), Float(arm.y), Float(arm.z))
    }
}
