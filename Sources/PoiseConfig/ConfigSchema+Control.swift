import PoiseControl

extension ConfigSchema {
    // Controller and safety keys: what turns attitude into commands and when outputs go safe.
    // The controller's gains are bound to PoiseControl's settings, whose defaults they take;
    // the controller's kind and setpoint source and the safety keys are bound in
    // PoiseConfiguration+Control.swift; docs/control.md explains them.

    static let controlGroups: [ConfigGroup] = [
        ConfigGroup("controller", doc: "Closed-loop controller: `balance` (two-wheeled robot) or `quad_x`/`quad_plus` (quadrotor on a test stand); `none` only estimates."),
        ConfigGroup("controller.balance", doc: "Balancing robot: axle along body x, driving along body +y; pitch is positive leaning back."),
        ConfigGroup("controller.balance.pitch", doc: "Pitch PID: error in rad → wheel drive −1…1; D acts on the gyroscope's x rate."),
        ConfigGroup("controller.balance.yaw_rate", doc: "Yaw-rate PID: rate in rad/s → differential drive (holds the drive setpoint's turn rate, 0 standing)."),
        ConfigGroup("controller.balance.encoders", doc: "Optional wheel encoders: quadrature A/B lines per wheel read through libgpiod edge events off the real-time thread; the speed estimate when counts_per_revolution > 0."),
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
        let balance: [ConfigBinding<BalanceSettings>] = [
            .number("controller.balance.pitch_setpoint_deg", \.pitchSetpoint, range: -30...30, unit: "°", .degreesToRadiansRoundedOnce, defaults: d,
                    doc: "Pitch the robot balances at (trims a centre of mass off the axle)."),
            .number("controller.balance.drive_feedback_deg", \.driveFeedback, range: -30...30, unit: "°", .degreesToRadiansRoundedOnce, defaults: d,
                    doc: "Lean added per unit of speed error (speed in units of full_drive_speed_m_s; without encoders, the low-passed mean wheel drive beyond what the speed setpoint needs), leaning back while too fast forward: stops the robot rolling away. 0 turns it off."),
            .number("controller.balance.drive_feedback_cutoff_hz", \.driveFeedbackCutoffHz, range: 0...10, unit: "Hz", defaults: d,
                    doc: "Low-pass corner of the speed estimate (mean drive, or encoders) that feeds drive_feedback_deg; 0 holds the drive estimate at 0 (no feedback)."),
            .number("controller.balance.deadband_compensation", \.deadbandCompensation, range: 0...0.5, zeroTurnsOff: 0, defaults: d,
                    doc: "Drive (fraction of full) added to each wheel in the direction it has been driven over the loop's own time scale (its drive low-passed at the pitch PD's corner kp/kd) and faded in over a drive as large as itself, so noise does not flip it and the wheels do not chatter: the motor driver's deadband and the gearbox's static friction are then crossed at once (an H-bridge's \"min duty\"). Measure it: raise a wheel's duty until it turns. 0 for none."),
        ]
        let driving: [ConfigBinding<BalanceSettings>] = [
            .number("controller.balance.full_drive_speed_m_s", \.fullDriveSpeed, range: 0.01...20, unit: "m/s", defaults: d,
                    doc: "Forward speed at full drive with no load: the motors' no-load speed at the battery voltage, through the gearbox, times the wheel radius. Turns drive into speed (the estimate without encoders) and feeds the drive a speed setpoint needs forward."),
            .number("controller.balance.acceleration_lean_deg", \.accelerationLean, range: 0...60, unit: "°·s²/m", .degreesToRadiansRoundedOnce, defaults: d,
                    doc: "Lean forward per m/s² of commanded acceleration (feedforward). A constant acceleration needs (body mass × centre-of-mass height + rolling mass × wheel radius) / (body mass × g × centre-of-mass height) in radians (8° for the simulated robot); about half of it tracks a drive script's short ramps best."),
            .number("controller.balance.max_acceleration_m_s2", \.maxAcceleration, range: 0...10, unit: "m/s²", zeroTurnsOff: 0, defaults: d,
                    doc: "Largest commanded acceleration: speed setpoint steps become ramps."),
            .number("controller.balance.turn_feedforward", \.turnFeedforward, range: 0...10, unit: "s/rad", defaults: d,
                    doc: "Differential drive per rad/s of turn-rate setpoint (feedforward): about wheel base / (2 × full_drive_speed_m_s)."),
            .number("controller.balance.wheel_radius_m", \.wheelRadius, range: 0.005...1, unit: "m", defaults: d,
                    doc: "Wheel radius (encoder counts → distance)."),
            .number("controller.balance.encoders.counts_per_revolution", \.encoderCountsPerRevolution, range: 0...1_000_000, zeroTurnsOff: 0, defaults: d,
                    doc: "Quadrature edges per wheel revolution (4 × the encoder's lines per revolution, × the gear ratio when it sits on the motor shaft); > 0 makes the encoders the speed estimate."),
        ]
        // Every gain and limit here is handed to the running tick (SIGHUP, PARAM_SET).
        return (balance + driving + pidBindings("controller.balance.pitch", \.pitch, unit: "rad", defaults: d)
          + pidBindings("controller.balance.yaw_rate", \.yawRate, unit: "(rad/s)", defaults: d)).map { $0.live() }
    }()

    /// `controller.quad`'s gains, bound to `QuadSettings` (the frame comes from `controller.kind`).
    public static let quadBindings: [ConfigBinding<QuadSettings>] = {
        let d = QuadSettings()
        // Every gain and limit here is handed to the running tick (SIGHUP, PARAM_SET).
        return ([
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
          + pidBindings("controller.quad.yaw_rate", \.yawRate, unit: "(rad/s)", defaults: d)).map { $0.live() }
    }()

    static let controlKeys: [ConfigKey] = PoiseConfiguration.Controller.bindings.map(\.key) + PoiseConfiguration.Safety.bindings.map(\.key)
}
