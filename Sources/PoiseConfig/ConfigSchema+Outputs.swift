extension ConfigSchema {
    // Output channel keys. Typed properties live in PoiseConfiguration+Outputs.swift.

    static let outputGroups: [ConfigGroup] = [
        ConfigGroup("outputs", doc: "PWM and GPIO outputs; each goes to its safe value on any fault."),
    ]

    static let pwmElement: [ConfigKey] = [
        ConfigKey(required: "chip", .integer(range: 0...1023), doc: "PWM chip number, as in /sys/class/pwm/pwmchipN."),
        ConfigKey(required: "channel", .integer(range: 0...1023), doc: "Channel on that chip."),
        ConfigKey("period_us", .integer(range: 100...1_000_000), default: 20000, unit: "µs", doc: "PWM period."),
        ConfigKey("safe_duty_us", .integer(range: 0...1_000_000), default: 1500, unit: "µs", doc: "Pulse width held while safe."),
        ConfigKey(required: "source", .enumeration(["pitch", "roll", "yaw", "controller"]), doc: "What drives the pulse width."),
    ]

    static let gpioElement: [ConfigKey] = [
        ConfigKey(required: "line", .integer(range: 0...4095), doc: "Line offset on board.gpio_chip."),
        ConfigKey("safe_value", .integerChoice([0, 1]), default: 0, doc: "Level held while safe."),
        ConfigKey(required: "source", .enumeration(["faceDown", "fault", "atRest"]), doc: "Condition that drives the line high."),
    ]

    static let outputKeys: [ConfigKey] = [
        // outputs
        ConfigKey("outputs.pwm", .list(of: pwmElement), default: .list([]), doc: "PWM outputs."),
        ConfigKey("outputs.gpio", .list(of: gpioElement), default: .list([]), doc: "GPIO outputs."),
    ]
}
