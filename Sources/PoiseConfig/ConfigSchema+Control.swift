import PoiseControl

extension ConfigSchema {
    // Controller and safety keys: what turns attitude into commands and when outputs go safe.
    // The controller's gains are bound to PoiseControl's settings, whose defaults they take;
    // safety's typed properties live in PoiseConfiguration+Control.swift; docs/control.md explains them.

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
        ConfigGroup("safety.switch", doc: "The arming switch (`arm_source: switch`): a GPIO input read through libgpiod edge events, off the real-time thread."),
    ]

    /// The six keys of one PID, bound to the `PIDSettings` at `pid`.
    static func pidBindings<Settings>(_ path: String, _ pid: WritableKeyPath<Settings, PIDSettings>, unit: String,
                                      defaults d: Settings) -> [ConfigBinding<Settings>] {
        [
            .number("\(path).kp", pid.appending(path: \.proportionalGain), range: 0...1000, unit: "1/\(unit)", defaults: d,
                    doc: "Proportional gain: output per \(unit) of error."),
            .number("\(path).ki", pid.appending(path: \.integralGain), range: 0...1000, unit: "1/(\(unit)·s)", defaults: d,
                    doc: "Integral gain: output per \(unit) of error held for 1 s."),
            .number("\(path).kd", pid.appending(path: \.derivativeGain), range: 0...1000, unit: "s/\(unit)", defaults: d,
                    doc: "Derivative gain, on the measurement's rate (no kick on setpoint steps)."),
            .number("\(path).d_cutoff_hz", pid.appending(path: \.derivativeCutoffHz), range: 0...1000, unit: "Hz", defaults: d,
                    doc: "Low-pass corner of the derivative; 0 for none."),
            .number("\(path).output_limit", pid.appending(path: \.outputLimit), range: 0...1, defaults: d,
                    doc: "Output clamped to ±this."),
            .number("\(path).integral_limit", pid.appending(path: \.integralLimit), range: 0...1, defaults: d,
                    doc: "Integral term clamped to ±this (anti-windup, with conditional integration)."),
        ]
    }

    /// `controller.balance`, bound to `BalanceSettings`.
    public static let balanceBindings: [ConfigBinding<BalanceSettings>] = {
        let d = BalanceSettings()
        return [
            .number("controller.balance.pitch_setpoint_deg", \.pitchSetpoint, range: -30...30, unit: "°", .degreesToRadiansRoundedOnce, defaults: d,
                    doc: "Pitch the robot balances at (trims a centre of mass off the axle)."),
            .number("controller.balance.drive_feedback_deg", \.driveFeedback, range: -30...30, unit: "°", .degreesToRadiansRoundedOnce, defaults: d,
                    doc: "Lean added per unit of low-passed mean wheel drive, leaning back while driving forward: without wheel encoders the drive is the speed estimate that stops the robot rolling away. 0 turns it off."),
            .number("controller.balance.drive_feedback_cutoff_hz", \.driveFeedbackCutoffHz, range: 0...10, unit: "Hz", defaults: d,
                    doc: "Low-pass corner of the mean drive that feeds drive_feedback_deg; 0 holds the estimate at 0 (no feedback)."),
        ] + pidBindings("controller.balance.pitch", \.pitch, unit: "rad", defaults: d)
          + pidBindings("controller.balance.yaw_rate", \.yawRate, unit: "(rad/s)", defaults: d)
    }()

    /// `controller.quad`'s gains, bound to `QuadSettings` (the frame comes from `controller.kind`).
    public static let quadBindings: [ConfigBinding<QuadSettings>] = {
        let d = QuadSettings()
        return [
            .number("controller.quad.angle_gain", \.angleGain, range: 0...50, unit: "1/s", defaults: d,
                    doc: "Pitch/roll rate setpoint per rad of angle error."),
            .number("controller.quad.max_tilt_rate_dps", \.maxTiltRate, range: 1...2000, unit: "°/s", .degreesToRadiansRoundedOnce, defaults: d,
                    doc: "Largest pitch/roll rate setpoint."),
            .number("controller.quad.heading_gain", \.headingGain, range: 0...50, unit: "1/s", defaults: d,
                    doc: "Yaw rate setpoint per rad of heading error; 0 holds yaw rate 0 (rate mode)."),
            .number("controller.quad.max_yaw_rate_dps", \.maxYawRate, range: 1...2000, unit: "°/s", .degreesToRadiansRoundedOnce, defaults: d,
                    doc: "Largest yaw rate setpoint."),
            .number("controller.quad.idle_throttle", \.idleThrottle, range: 0...0.5, defaults: d,
                    doc: "Throttle of every motor at zero demand while armed (props keep turning); 0 while disarmed."),
        ] + pidBindings("controller.quad.pitch_rate", \.pitchRate, unit: "(rad/s)", defaults: d)
          + pidBindings("controller.quad.roll_rate", \.rollRate, unit: "(rad/s)", defaults: d)
          + pidBindings("controller.quad.yaw_rate", \.yawRate, unit: "(rad/s)", defaults: d)
    }()

    static let controlKeys: [ConfigKey] = [
        ConfigKey("controller.kind", .enumeration(["none", "balance", "quad_x", "quad_plus"]), default: "none", doc: "Which controller drives the `motor*`/`*wheel*` signals; `none` leaves them 0."),
    ] + balanceBindings.map(\.key) + [
        ConfigKey("controller.quad.throttle", .number(range: 0...1), default: 0.5, doc: "Fixed collective test throttle, 0…1 (the motors' share of full thrust before attitude corrections)."),
        ConfigKey("controller.quad.setpoint_file", .string, default: "", doc: "CSV of setpoints over time (`time_s,throttle,pitch_deg,roll_deg,heading_deg`, header required, times rising, held between rows, relative to this file); empty for level at `throttle`."),
    ] + quadBindings.map(\.key) + [
        ConfigKey("safety.max_tilt_deg", .number(range: 0...180), default: 45, unit: "°", doc: "Tilt from vertical beyond which every output goes safe (the robot has fallen; the quad has flipped)."),
        ConfigKey("safety.arm_tilt_deg", .number(range: 0...90), default: 15, unit: "°", doc: "Tilt from vertical within which arming is allowed."),
        ConfigKey("safety.arm_hold_s", .number(range: 0...60), default: 0.5, unit: "s", doc: "How long level, a healthy sensor and an initialised filter must hold before arming."),
        ConfigKey("safety.auto_arm", .boolean, default: true, doc: "Arm by itself when the conditions hold (and again after a fault that clears); false keeps every output safe."),
        ConfigKey("safety.sensor_timeout_ms", .number(range: 1...10000), default: 20, unit: "ms", doc: "Time without a new sample (a conversion the chip made since the last read) before the sensor counts as lost (a failed read after the driver's retries counts at once)."),
        ConfigKey("safety.stall_ms", .number(range: 1...10000), default: 20, unit: "ms", doc: "A tick that wakes this much later than due (the process was stopped, starved or swapped out) drives every output safe in that tick. The default, as long as sensor_timeout_ms, is 4 periods at the default 200 Hz: above a Linux board's ordinary wake-up jitter (overrun_limit handles a slow tick), below the time a falling robot needs to get beyond recovery."),
        ConfigKey("safety.arm_source", .enumeration(["auto", "switch"]), default: "auto", doc: "What arms the outputs: `auto` the supervisor itself (see auto_arm); `switch` the arming switch (safety.switch) turned from off to on while every arming condition holds; off disarms at once."),
        ConfigKey("safety.rearm", .enumeration(["never", "when_level"]), default: "never", doc: "After a failsafe, `never` arms again only by a new switch cycle (or a restart); `when_level` arms by itself once the fault has cleared and the conditions hold (balance controller or none only, a robot picked up and set upright; refused for a quadrotor)."),
        ConfigKey("safety.switch.chip", .string, default: "", doc: "GPIO chip of the arming switch (name, label or path); empty for board.gpio_chip."),
        ConfigKey("safety.switch.line", .integer(range: 0...1023), default: 0, doc: "Line offset of the arming switch on its chip."),
        ConfigKey("safety.switch.active_low", .boolean, default: false, doc: "The switch is on when its line is low (a switch to ground with a pull-up)."),
        ConfigKey("safety.switch.bias", .enumeration(["as_is", "disable", "pull_up", "pull_down"]), default: "as_is", doc: "The line's internal bias: `as_is` leaves what the board set."),
        ConfigKey("safety.switch.debounce_ms", .number(range: 0...1000), default: 20, unit: "ms", doc: "A level counts once it has held this long without another edge (contact bounce)."),
    ]
}
