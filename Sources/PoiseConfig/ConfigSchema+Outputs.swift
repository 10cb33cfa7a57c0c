extension ConfigSchema {
    // Output channel keys. The keys are bound in PoiseConfiguration+Outputs.swift, beside the fields they set; the
    // mapping is described in docs/outputs.md.

    static let outputGroups: [ConfigGroup] = [
        ConfigGroup("outputs", doc: "Output channels (GPIO lines, sysfs PWM, PCA9685); each goes to its safe value whenever the controller is not live."),
        ConfigGroup("outputs.pca9685", doc: "PCA9685 16-channel PWM board on board.i2c_bus, shared with the MPU-9250."),
    ]

    /// Signal names a channel's `source` may take (PoiseControl's `OutputSignal`).
    public static let outputSignals = [
        "motor1", "motor2", "motor3", "motor4", "motor5", "motor6", "motor7", "motor8",
        "left_wheel", "right_wheel", "left_wheel_duty", "right_wheel_duty",
        "left_wheel_forward", "left_wheel_reverse", "right_wheel_forward", "right_wheel_reverse",
        "pitch", "roll", "yaw", "armed", "fault", "faceDown", "atRest",
    ]

    static let outputKeys: [ConfigKey] = PoiseConfiguration.Outputs.bindings.map(\.key)

    /// Cross-key checks of output channels, reported on the line of the key at fault.
    static let outputRules: [ConfigRule] = [
        ConfigRule(paths: ["outputs.channels"]) { file, _ in
            let count = file.list("outputs.channels").count
            return count > 16 ? "at most 16 output channels, got \(count)" : nil
        },
        ConfigRule(list: "outputs.channels", paths: ["line", "kind"]) { channel, _ in
            guard channel.string("kind") == "gpio", channel.integer("line") < 0 else { return nil }
            return "a gpio channel needs `line` (the line offset, e.g. 17 for GPIO17)"
        },
        ConfigRule(list: "outputs.channels", paths: ["channel", "kind"]) { channel, _ in
            let kind = channel.string("kind"), number = channel.integer("channel")
            if kind == "pwm", number < 0 { return "a pwm channel needs `channel` (M of pwmchipN/pwmM)" }
            if kind == "pca9685", !(0...15).contains(number) { return "a pca9685 channel needs `channel` 0…15" }
            return nil
        },
        ConfigRule(list: "outputs.channels", paths: ["chip"]) { channel, _ in
            guard channel.string("kind") == "pwm" else { return nil }
            let chip = channel.string("chip")
            guard !chip.isEmpty, Int(chip).map({ $0 < 0 }) ?? true else { return nil }
            return "a pwm chip is the number N of /sys/class/pwm/pwmchipN, got `\(chip)`"
        },
        ConfigRule(list: "outputs.channels", paths: ["input_max", "input_min"]) { channel, _ in
            let low = channel.number("input_min"), high = channel.number("input_max")
            guard !(low == 0 && high == 0), low >= high else { return nil }
            return "input_min (\(format(low))) must be below input_max (\(format(high)))"
        },
        ConfigRule(list: "outputs.channels", paths: ["pulse_max_us", "pulse_min_us"]) { channel, _ in
            let low = channel.number("pulse_min_us"), high = channel.number("pulse_max_us")
            guard low > high else { return nil }
            return "pulse_min_us (\(format(low)) µs) is longer than pulse_max_us (\(format(high)) µs); use invert: true to reverse"
        },
        ConfigRule(list: "outputs.channels", paths: ["duty_max", "duty_min"]) { channel, _ in
            let low = channel.number("duty_min"), high = channel.number("duty_max")
            guard low > high else { return nil }
            return "duty_min (\(format(low))) is above duty_max (\(format(high))); use invert: true to reverse"
        },
        ConfigRule(list: "outputs.channels", paths: ["duty_min", "duty_max", "pulse_min_us"]) { channel, _ in
            guard usesPulseRange(channel), channel.number("duty_min") != 0 || channel.number("duty_max") != 1 else { return nil }
            return "give either pulse_min_us/pulse_max_us or duty_min/duty_max, not both"
        },
        ConfigRule(list: "outputs.channels", paths: ["safe_duty", "safe_us"]) { channel, _ in
            guard channel.number("safe_us") > 0, channel.number("safe_duty") > 0 else { return nil }
            return "give either safe_us or safe_duty, not both"
        },
        ConfigRule(list: "outputs.channels", paths: ["pulse_max_us", "safe_us", "period_us"]) { channel, file in
            guard channel.string("kind") != "gpio" else { return nil }
            let period = periodMicroseconds(channel, file)
            let longest = max(channel.number("pulse_max_us"), channel.number("safe_us"))
            guard longest > period else { return nil }
            let source = channel.string("kind") == "pwm" ? "period_us" : "1/outputs.pca9685.frequency_hz"
            return "a \(format(longest)) µs pulse does not fit the \(format(period)) µs period (\(source))"
        },
        ConfigRule(list: "outputs.channels", paths: ["safe_us", "pulse_min_us"]) { channel, _ in
            let safe = channel.number("safe_us")
            guard safe > 0, usesPulseRange(channel) else { return nil }
            let low = channel.number("pulse_min_us"), high = channel.number("pulse_max_us")
            guard safe < low || safe > high else { return nil }
            return "safe_us (\(format(safe)) µs) lies outside pulse_min_us…pulse_max_us (\(format(low))…\(format(high)) µs); 0 means no pulse"
        },
        ConfigRule(list: "outputs.channels", paths: ["pulse_min_us", "pulse_max_us", "safe_us", "safe_duty", "kind"]) { channel, _ in
            guard channel.string("kind") == "gpio" else { return nil }
            let pulseKeys = ["pulse_min_us", "pulse_max_us", "safe_us", "safe_duty"]
            guard let used = pulseKeys.first(where: { channel.number($0) != 0 }) else { return nil }
            return "`\(used)` applies to pwm and pca9685 channels; a gpio channel uses threshold and safe_value"
        },
        // The name heads the recording's `out_NAME` column: a comma would split it, a `#`
        // would cut the header short where a CSV reader skips comments (pandas' `comment="#"`).
        ConfigRule(list: "outputs.channels", paths: ["name"]) { channel, _ in
            let name = channel.string("name")
            guard let bad = name.first(where: { $0 == "," || $0 == "#" || $0 == "\"" || $0.isWhitespace || $0.asciiValue.map { $0 < 32 } == true })
            else { return nil }
            return "the name `\(name)` names the recording's out_\(name) column: it cannot hold \(bad.isWhitespace ? "spaces" : "`\(bad)`") (letters, digits, `_`, `-` and `.` read well everywhere)"
        },
        ConfigRule(list: "outputs.channels", paths: ["name"]) { channel, file in
            let channels = file.list("outputs.channels")
            guard let first = channels.firstIndex(where: { $0.string("name") == channel.string("name") }),
                  channels[first] != channel else { return nil }
            return "the name `\(channel.string("name"))` is also used by outputs.channels[\(first)]"
        },
        ConfigRule(list: "outputs.channels", paths: ["channel", "line", "kind"]) { channel, file in
            let channels = file.list("outputs.channels")
            let place = hardwarePlace(channel, file)
            guard let first = channels.firstIndex(where: { hardwarePlace($0, file) == place }),
                  channels[first] != channel else { return nil }
            return "\(place) is also driven by `\(channels[first].string("name"))` (outputs.channels[\(first)])"
        },
    ]

    static func usesPulseRange(_ channel: ConfigTable) -> Bool {
        channel.number("pulse_min_us") != 0 || channel.number("pulse_max_us") != 0
    }

    /// The channel's PWM period, µs.
    static func periodMicroseconds(_ channel: ConfigTable, _ file: ConfigTable) -> Double {
        channel.string("kind") == "pwm"
            ? Double(channel.integer("period_us")) : 1e6 / file.number("outputs.pca9685.frequency_hz")
    }

    /// What a channel drives, for the uniqueness check: `gpiochip0 line 17`.
    static func hardwarePlace(_ channel: ConfigTable, _ file: ConfigTable) -> String {
        let chip = channel.string("chip")
        switch channel.string("kind") {
        case "gpio": return "\(chip.isEmpty ? file.string("board.gpio_chip") : chip) line \(channel.integer("line"))"
        case "pwm": return "pwmchip\(chip.isEmpty ? "0" : chip)/pwm\(channel.integer("channel"))"
        default: return "PCA9685 channel \(channel.integer("channel"))"
        }
    }

    static func format(_ value: Double) -> String { ConfigFormat.number(value) }
}
