extension ConfigSchema {
    // Controller and safety keys: what turns attitude into commands and when outputs go safe.
    // Typed properties live in PoiseConfiguration+Control.swift; docs/control.md explains them.

    static let controlGroups: [ConfigGroup] = [
        ConfigGroup("controller", doc: "Closed-loop controller: `balance` (two-wheeled robot) or `quad_x`/`quad_plus` (quadrotor on a test stand); `none` only estimates."),
        ConfigGroup("controller.balance", doc: "Balancing robot: axle along body x, driving along body +y; pitch is positive leaning back."),
        ConfigGroup("controller.balance.pitch", doc: "Pitch PID: error in rad → wheel drive −1…1; D acts on the gyroscope's x rate."),
        ConfigGroup("controller.balance.yaw_rate", doc: "Yaw-rate PID: rate in rad/s → differential drive (holds the heading rate at 0)."),
        ConfigGroup("controller.quad", doc: "Quadrotor: angle → rate → torque cascade and motor mixer (ArduPilot motor numbering)."),
        ConfigGroup("controller.quad.pitch_rate", doc: "Pitch-rate PID (body x): rad/s → torque demand in throttle units."),
        ConfigGroup("controller.quad.roll_rate", doc: "Roll-rate PID (body y): rad/s → torque demand in throttle units."),
        ConfigGroup("controller.quad.yaw_rate", doc: "Yaw-rate PID (body z): rad/s → torque demand in throttle units."),
        ConfigGroup("safety", doc: "Arming, and the faults that force every output to its safe value."),
    ]

    /// The six keys of one PID.
    static func pidKeys(_ path: String, unit: String, kp: Double, ki: Double, kd: Double, cutoff: Double,
                        limit: Double, integralLimit: Double) -> [ConfigKey] {
        [
            ConfigKey("\(path).kp", .number(range: 0...1000), default: .number(kp), unit: "1/\(unit)", doc: "Proportional gain: output per \(unit) of error."),
            ConfigKey("\(path).ki", .number(range: 0...1000), default: .number(ki), unit: "1/(\(unit)·s)", doc: "Integral gain: output per \(unit) of error held for 1 s."),
            ConfigKey("\(path).kd", .number(range: 0...1000), default: .number(kd), unit: "s/\(unit)", doc: "Derivative gain, on the measurement's rate (no kick on setpoint steps)."),
            ConfigKey("\(path).d_cutoff_hz", .number(range: 0...1000), default: .number(cutoff), unit: "Hz", doc: "Low-pass corner of the derivative; 0 for none."),
            ConfigKey("\(path).output_limit", .number(range: 0...1), default: .number(limit), doc: "Output clamped to ±this."),
            ConfigKey("\(path).integral_limit", .number(range: 0...1), default: .number(integralLimit), doc: "Integral term clamped to ±this (anti-windup, with conditional integration)."),
        ]
    }

    static let controlKeys: [ConfigKey] = [
        ConfigKey("controller.kind", .enumeration(["none", "balance", "quad_x", "quad_plus"]), default: "none", doc: "Which controller drives the `motor*`/`*wheel*` signals; `none` leaves them 0."),
        ConfigKey("controller.balance.pitch_setpoint_deg", .number(range: -30...30), default: 0, unit: "°", doc: "Pitch the robot balances at (trims a centre of mass off the axle)."),
        ConfigKey("controller.balance.drive_feedback_deg", .number(range: -30...30), default: 6, unit: "°", doc: "Lean added per unit of low-passed mean wheel drive, leaning back while driving forward: without wheel encoders the drive is the speed estimate that stops the robot rolling away. 0 turns it off."),
        ConfigKey("controller.balance.drive_feedback_cutoff_hz", .number(range: 0...10), default: 0.5, unit: "Hz", doc: "Low-pass corner of the mean drive that feeds drive_feedback_deg; 0 holds the estimate at 0 (no feedback)."),
    ] + pidKeys("controller.balance.pitch", unit: "rad", kp: 6, ki: 20, kd: 0.35, cutoff: 40, limit: 1, integralLimit: 0.5)
      + pidKeys("controller.balance.yaw_rate", unit: "(rad/s)", kp: 0.2, ki: 0, kd: 0, cutoff: 20, limit: 0.3, integralLimit: 0.3)
      + [
        ConfigKey("controller.quad.throttle", .number(range: 0...1), default: 0.5, doc: "Fixed collective test throttle, 0…1 (the motors' share of full thrust before attitude corrections)."),
        ConfigKey("controller.quad.setpoint_file", .string, default: "", doc: "CSV of setpoints over time (`time_s,throttle,pitch_deg,roll_deg,heading_deg`, header required, times rising, held between rows, relative to this file); empty for level at `throttle`."),
        ConfigKey("controller.quad.angle_gain", .number(range: 0...50), default: 4.5, unit: "1/s", doc: "Pitch/roll rate setpoint per rad of angle error."),
        ConfigKey("controller.quad.max_tilt_rate_dps", .number(range: 1...2000), default: 200, unit: "°/s", doc: "Largest pitch/roll rate setpoint."),
        ConfigKey("controller.quad.heading_gain", .number(range: 0...50), default: 0, unit: "1/s", doc: "Yaw rate setpoint per rad of heading error; 0 holds yaw rate 0 (rate mode)."),
        ConfigKey("controller.quad.max_yaw_rate_dps", .number(range: 1...2000), default: 90, unit: "°/s", doc: "Largest yaw rate setpoint."),
        ConfigKey("controller.quad.idle_throttle", .number(range: 0...0.5), default: 0.08, doc: "Throttle of every motor at zero demand while armed (props keep turning); 0 while disarmed."),
    ] + pidKeys("controller.quad.pitch_rate", unit: "(rad/s)", kp: 0.135, ki: 0.135, kd: 0.0036, cutoff: 20, limit: 1, integralLimit: 0.5)
      + pidKeys("controller.quad.roll_rate", unit: "(rad/s)", kp: 0.135, ki: 0.135, kd: 0.0036, cutoff: 20, limit: 1, integralLimit: 0.5)
      + pidKeys("controller.quad.yaw_rate", unit: "(rad/s)", kp: 0.2, ki: 0.02, kd: 0, cutoff: 20, limit: 0.5, integralLimit: 0.2)
      + [
        ConfigKey("safety.max_tilt_deg", .number(range: 0...180), default: 45, unit: "°", doc: "Tilt from vertical beyond which every output goes safe (the robot has fallen; the quad has flipped)."),
        ConfigKey("safety.arm_tilt_deg", .number(range: 0...90), default: 15, unit: "°", doc: "Tilt from vertical within which arming is allowed."),
        ConfigKey("safety.arm_hold_s", .number(range: 0...60), default: 0.5, unit: "s", doc: "How long level, a healthy sensor and an initialised filter must hold before arming."),
        ConfigKey("safety.auto_arm", .boolean, default: true, doc: "Arm by itself when the conditions hold (and again after a fault that clears); false keeps every output safe."),
        ConfigKey("safety.sensor_timeout_ms", .number(range: 1...10000), default: 20, unit: "ms", doc: "Time without a new sample (a conversion the chip made since the last read) before the sensor counts as lost (a failed read after the driver's retries counts at once)."),
    ]
}
