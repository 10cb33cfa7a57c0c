extension ConfigSchema {
    // Controller and safety keys: what turns attitude into commands and when outputs go safe.
    // Typed properties live in PoiseConfiguration+Control.swift.

    static let controlGroups: [ConfigGroup] = [
        ConfigGroup("controller", doc: "Closed-loop controller driving outputs with `source: controller`."),
        ConfigGroup("controller.pid", doc: "PID controller on pitch."),
        ConfigGroup("safety", doc: "Conditions that force every output to its safe value."),
    ]

    static let controlKeys: [ConfigKey] = [
        // controller
        ConfigKey("controller.kind", .enumeration(["none", "pid"]), default: "none", doc: "Controller type."),
        ConfigKey("controller.pid.kp", .number(range: -1000...1000), default: 0, unit: "1/°", doc: "Proportional gain."),
        ConfigKey("controller.pid.ki", .number(range: -1000...1000), default: 0, unit: "1/(°·s)", doc: "Integral gain."),
        ConfigKey("controller.pid.kd", .number(range: -1000...1000), default: 0, unit: "s/°", doc: "Derivative gain."),
        ConfigKey("controller.pid.setpoint_deg", .number(range: -180...180), default: 0, unit: "°", doc: "Target pitch."),
        ConfigKey("controller.pid.output_limit", .number(range: 0...1000), default: 1.0, doc: "Output is clamped to ±this."),
        // safety
        ConfigKey("safety.max_tilt_deg", .number(range: 0...180), default: 45, unit: "°", doc: "Tilt from vertical beyond which outputs go safe."),
        ConfigKey("safety.sensor_timeout_ms", .number(range: 1...10000), default: 50, unit: "ms", doc: "Time without a good sample before outputs go safe."),
    ]
}
