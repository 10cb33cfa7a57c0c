// The `outputs` section and the keys of each `outputs.channels` element: each field declared
// with its default and bound once to its key. PoiseSettings turns them into the output bank's
// settings.

extension PoiseConfiguration {
    /// `outputs`: the output channels and the PCA9685 they may use.
    public struct Outputs: Equatable, Sendable {
        public var channels: [Channel] = []
        /// `/sys/class/pwm`, or a directory tree in tests.
        public var pwmSysfsRoot = "/sys/class/pwm"
        public var pca9685 = PCA9685()
    }

    /// `outputs.pca9685`.
    public struct PCA9685: Equatable, Sendable {
        /// 7-bit I²C address.
        public var address = 0x40
        /// Hz.
        public var frequencyHz: Double = 50
        /// Hz.
        public var oscillatorHz: Double = 25_000_000
    }

    /// One element of `outputs.channels`; units in the comments, as in the file.
    public struct Channel: Equatable, Sendable {
        public enum Kind: String, CaseIterable, Sendable { case gpio, pwm, pca9685 }
        public enum Drive: String, CaseIterable, Sendable {
            case pushPull = "push_pull", openDrain = "open_drain", openSource = "open_source"
        }
        public enum Polarity: String, CaseIterable, Sendable { case normal, inversed }

        public var name = ""
        public var kind = Kind.gpio
        /// An `OutputSignal` raw value, e.g. `left_wheel_duty`.
        public var source = ""
        /// gpio: name, path or label ("" = board.gpio_chip); pwm: chip number ("" = 0).
        public var chip = ""
        /// gpio line offset; -1 when not set.
        public var line = -1
        /// pwm or pca9685 channel; -1 when not set.
        public var channel = -1
        public var activeLow = false
        public var drive = Drive.pushPull
        /// Signal units.
        public var threshold = 0.5
        /// 0 or 1.
        public var safeValue = 0
        /// µs (pwm).
        public var periodMicroseconds = 20000
        public var polarity = Polarity.normal
        /// Signal units; both 0 = the signal's own range.
        public var inputMin: Double = 0
        public var inputMax: Double = 0
        /// µs; both 0 = use the duty range.
        public var pulseMinMicroseconds: Double = 0
        public var pulseMaxMicroseconds: Double = 0
        /// Fractions of the period.
        public var dutyMin: Double = 0
        public var dutyMax: Double = 1
        public var invert = false
        /// Signal units per second; 0 = unlimited.
        public var slewRate: Double = 0
        /// µs; 0 = use safeDuty.
        public var safeMicroseconds: Double = 0
        /// Fraction of the period.
        public var safeDuty: Double = 0

        /// Whether the mapping is a pulse range (µs) rather than a duty range.
        public var usesPulseRange: Bool { pulseMinMicroseconds != 0 || pulseMaxMicroseconds != 0 }
        /// Whether input_min/input_max were given.
        public var hasInputRange: Bool { inputMin != 0 || inputMax != 0 }
    }
}

extension PoiseConfiguration.Outputs {
    init(_ v: ConfigTable) { self = ConfigBinding.settings(Self.bindings, from: v, base: Self()) }

    static let bindings: [ConfigBinding<Self>] = {
        let d = Self()
        return [
            .list("outputs.channels", \.channels, of: PoiseConfiguration.Channel.bindings, base: PoiseConfiguration.Channel(),
                  doc: "Output channels, at most 16, in the order the loop writes them.").live(),
            .string("outputs.pwm_sysfs_root", \.pwmSysfsRoot, defaults: d, doc: "Where the PWM chips are; tests point this at a directory tree."),
            .integer("outputs.pca9685.address", \.pca9685.address, range: 0x40...0x7F, defaults: d,
                     doc: "7-bit I²C address (64 = 0x40 with no address jumpers; write 0x41 etc.)."),
            .number("outputs.pca9685.frequency_hz", \.pca9685.frequencyHz, range: 24...1526, unit: "Hz", defaults: d,
                    doc: "PWM frequency: 50 for servos, up to 400 for ESCs."),
            .number("outputs.pca9685.oscillator_hz", \.pca9685.oscillatorHz, range: 20_000_000...30_000_000, unit: "Hz", defaults: d,
                    doc: "The chip's oscillator; measure a pulse and adjust when pulses are a few % off."),
        ]
    }()
}

extension PoiseConfiguration.Channel {
    /// The keys of one `outputs.channels` element, paths relative to it.
    static let bindings: [ConfigBinding<Self>] = {
        let d = Self()
        return [
            ConfigBinding.string("name", \.name, defaults: d, doc: "Name used in messages, by `poise safe` and as the recording's `out_NAME` column (so no `,`, `#`, `\"` or spaces).").required().live(),
            ConfigBinding.choice("kind", \.kind, defaults: d,
                                 doc: "`gpio` a libgpiod line, `pwm` a /sys/class/pwm channel, `pca9685` a PCA9685 channel.").required(),
            ConfigBinding.string("source", \.source, choices: ConfigSchema.outputSignals, defaults: d,
                                 doc: "Signal that drives the channel (motors 0…1, wheels −1…1, duties 0…1, directions and flags 0/1, angles rad).").required().live(),
            .string("chip", \.chip, defaults: d,
                    doc: "gpio: chip name (gpiochip0), path (/dev/gpiochip0) or label (pinctrl-rp1 on a Pi 5), empty = board.gpio_chip; pwm: N of /sys/class/pwm/pwmchipN, empty = board.pwm_chip."),
            .integer("line", \.line, range: -1...4095, defaults: d, doc: "gpio: line offset on the chip (the BCM GPIO number on a Pi); required for gpio."),
            .integer("channel", \.channel, range: -1...1023, defaults: d, doc: "pwm: channel on the chip; pca9685: 0…15; required for both."),
            .boolean("active_low", \.activeLow, defaults: d, doc: "gpio: logical 1 drives the pin low."),
            .choice("drive", \.drive, defaults: d, doc: "gpio: output drive."),
            .number("threshold", \.threshold, range: -1000...1000, defaults: d, doc: "gpio: the line is 1 while the signal ≥ this.").live(),
            .integer("safe_value", \.safeValue, choices: [0, 1], defaults: d, doc: "gpio: level held while not live."),
            .integer("period_us", \.periodMicroseconds, range: 10...1_000_000, unit: "µs", defaults: d,
                     doc: "pwm: PWM period: 20000 for servos, 50 (20 kHz) for an H-bridge (pca9685 channels use outputs.pca9685.frequency_hz)."),
            .choice("polarity", \.polarity, defaults: d, doc: "pwm: `inversed` makes the pulse low."),
            .number("input_min", \.inputMin, range: -1000...1000, defaults: d,
                    doc: "Signal value mapped to the low end; the signal is clamped to input_min…input_max; both 0 = the signal's own range.").live(),
            .number("input_max", \.inputMax, range: -1000...1000, defaults: d, doc: "Signal value mapped to the high end.").live(),
            .number("pulse_min_us", \.pulseMinMicroseconds, range: 0...1_000_000, unit: "µs", defaults: d,
                    doc: "High time at input_min (servo/ESC 1000); both pulse keys 0 = use duty_min/duty_max.").live(),
            .number("pulse_max_us", \.pulseMaxMicroseconds, range: 0...1_000_000, unit: "µs", defaults: d, doc: "High time at input_max (servo/ESC 2000).").live(),
            .number("duty_min", \.dutyMin, range: 0...1, defaults: d, doc: "Duty cycle at input_min, fraction of the period.").live(),
            .number("duty_max", \.dutyMax, range: 0...1, defaults: d, doc: "Duty cycle at input_max, fraction of the period.").live(),
            .boolean("invert", \.invert, defaults: d, doc: "Swap the ends of the output range (gpio: output the opposite level).").live(),
            .number("slew_rate", \.slewRate, range: 0...1_000_000, unit: "1/s", zeroTurnsOff: true, defaults: d,
                    doc: "Largest change per second in signal units; 0 = unlimited.").live(),
            .number("safe_us", \.safeMicroseconds, range: 0...1_000_000, unit: "µs", defaults: d,
                    doc: "High time held while not live (ESC 1000, servo centre 1500); 0 = use safe_duty.").live(),
            .number("safe_duty", \.safeDuty, range: 0...1, zeroTurnsOff: true, defaults: d,
                    doc: "Duty cycle held while not live when safe_us is 0; 0 = no pulse.").live(),
        ]
    }()
}
