extension ConfigSchema {
    // The filter keys live apart so tuning a filter's parameters touches one file: add the key
    // here and, if code wants it typed, a property in PoiseConfiguration+Filter.swift.

    static let filterGroups: [ConfigGroup] = [
        ConfigGroup("filter", doc: "Attitude filter."),
        ConfigGroup("filter.complementary", doc: "Complementary filter."),
        ConfigGroup("filter.madgwick", doc: "Madgwick gradient-descent filter."),
        ConfigGroup("filter.mahony", doc: "Mahony explicit complementary filter."),
        ConfigGroup("filter.mekf", doc: "Multiplicative extended Kalman filter: noise densities."),
        ConfigGroup("filter.poise", doc: "Poise filter (VQF-style): time constants, bias estimation, disturbance rejection."),
    ]

    static let filterKeys: [ConfigKey] = [
        ConfigKey("filter.name", .enumeration(["poise", "mekf", "madgwick", "mahony", "complementary"]), default: "poise", doc: "Which attitude filter runs."),
        ConfigKey("filter.magnetometer", .boolean, default: true, doc: "Fuse the magnetometer (9D, heading from magnetic north) or not (6D, heading drifts)."),
        ConfigKey("filter.complementary.time_constant", .number(range: 0.01...100), default: 1.0, unit: "s", doc: "Time over which accelerometer and magnetometer correct the gyroscope."),
        ConfigKey("filter.madgwick.beta", .number(range: 0...10), default: 0.1, doc: "Gradient-descent gain; larger trusts accelerometer and magnetometer more."),
        ConfigKey("filter.madgwick.startup_gain", .number(range: 0...100), default: 10, doc: "Gain used during start-up so the attitude converges quickly."),
        ConfigKey("filter.madgwick.startup_time", .number(range: 0...60), default: 3, unit: "s", doc: "Duration of the start-up gain."),
        ConfigKey("filter.mahony.kp", .number(range: 0...100), default: 0.74, doc: "Proportional gain of the attitude error feedback."),
        ConfigKey("filter.mahony.ki", .number(range: 0...100), default: 0.0012, doc: "Integral gain (gyroscope bias estimation)."),
        ConfigKey("filter.mekf.gyroscope_noise", .number(range: 0...10), default: 0.005, unit: "rad/s", doc: "Gyroscope white noise."),
        ConfigKey("filter.mekf.gyroscope_bias_noise", .number(range: 0...1), default: 1e-5, unit: "rad/s²", doc: "Gyroscope bias random walk."),
        ConfigKey("filter.mekf.accelerometer_noise", .number(range: 0...100), default: 0.5, unit: "m/s²", doc: "Accelerometer noise including unmodelled acceleration."),
        ConfigKey("filter.mekf.magnetometer_noise", .number(range: 0...1000), default: 2.0, unit: "µT", doc: "Magnetometer noise including unmodelled disturbance."),
        ConfigKey("filter.poise.accelerometer_time_constant", .number(range: 0.01...100), default: 3.0, unit: "s", doc: "Time constant of the inclination correction."),
        ConfigKey("filter.poise.magnetometer_time_constant", .number(range: 0.01...1000), default: 9.0, unit: "s", doc: "Time constant of the heading correction."),
        ConfigKey("filter.poise.rest_bias_estimation", .boolean, default: true, doc: "Estimate gyroscope bias while at rest."),
        ConfigKey("filter.poise.motion_bias_estimation", .boolean, default: true, doc: "Estimate gyroscope bias while moving."),
        ConfigKey("filter.poise.magnetic_disturbance_rejection", .boolean, default: true, doc: "Ignore the magnetometer while the field is disturbed."),
        ConfigKey("filter.poise.rest_gyroscope_threshold", .number(range: 0...100), default: 2.0, unit: "°/s", doc: "Rotation rate below which the sensor may be at rest."),
        ConfigKey("filter.poise.rest_accelerometer_threshold", .number(range: 0...10), default: 0.5, unit: "m/s²", doc: "Deviation from gravity below which the sensor may be at rest."),
        ConfigKey("filter.poise.rest_time", .number(range: 0...60), default: 1.5, unit: "s", doc: "Time both thresholds must hold before rest is declared."),
        ConfigKey("filter.poise.bias_limit", .number(range: 0...100), default: 2.0, unit: "°/s", doc: "Largest gyroscope bias the filter will estimate."),
    ]
}
