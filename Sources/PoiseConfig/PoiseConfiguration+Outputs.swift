extension PoiseConfiguration {
    /// `outputs`: the output channels and the PCA9685 they may use.
    public struct Outputs: Equatable, Sendable {
        public var channels: [Channel]
        public var pca9685: PCA9685
        /// `/sys/class/pwm`, or a directory tree in tests.
        public var pwmSysfsRoot: String

        init(_ v: ConfigTable) {
            channels = v.list("outputs.channels").map(Channel.init)
            pca9685 = PCA9685(address: v.integer("outputs.pca9685.address"),
                              frequencyHz: v.number("outputs.pca9685.frequency_hz"),
                              oscillatorHz: v.number("outputs.pca9685.oscillator_hz"))
            pwmSysfsRoot = v.string("outputs.pwm_sysfs_root")
        }
    }

    /// `outputs.pca9685`.
    public struct PCA9685: Equatable, Sendable {
        /// 7-bit I²C address.
        public var address: Int
        /// Hz.
        public var frequencyHz: Double
        /// Hz.
        public var oscillatorHz: Double
    }

    /// One element of `outputs.channels`; units in the comments, as in the file.
    public struct Channel: Equatable, Sendable {
        public enum Kind: String, CaseIterable, Sendable { case gpio, pwm, pca9685 }
        public enum Drive: String, CaseIterable, Sendable {
            case pushPull = "push_pull", openDrain = "open_drain", openSource = "open_source"
        }
        public enum Polarity: String, CaseIterable, Sendable { case normal, inversed }

        public var name: String
        public var kind: Kind
        /// An `OutputSignal` raw value, e.g. `left_wheel_duty`.
        public var source: String
        /// gpio: name, path or label ("" = board.gpio_chip); pwm: chip number ("" = 0).
        public var chip: String
        /// gpio line offset; -1 when not set.
        public var line: Int
        /// pwm or pca9685 channel; -1 when not set.
        public var channel: Int
        public var activeLow: Bool
        public var drive: Drive
        /// Signal units.
        public var threshold: Double
        /// 0 or 1.
        public var safeValue: Int
        /// µs (pwm).
        public var periodMicroseconds: Int
        public var polarity: Polarity
        /// Signal units; both 0 = the signal's own range.
        public var inputMin: Double
        public var inputMax: Double
        /// µs; both 0 = use the duty range.
        public var pulseMinMicroseconds: Double
        public var pulseMaxMicroseconds: Double
        /// Fractions of the period.
        public var dutyMin: Double
        public var dutyMax: Double
        public var invert: Bool
        /// Signal units per second; 0 = unlimited.
        public var slewRate: Double
        /// µs; 0 = use safeDuty.
        public var safeMicroseconds: Double
        /// Fraction of the period.
        public var safeDuty: Double

        init(_ v: ConfigTable) {
            name = v.string("name")
            kind = v.choice("kind")
            source = v.string("source")
            chip = v.string("chip")
            line = v.integer("line")
            channel = v.integer("channel")
            activeLow = v.boolean("active_low")
            drive = v.choice("drive")
            threshold = v.number("threshold")
            safeValue = v.integer("safe_value")
            periodMicroseconds = v.integer("period_us")
            polarity = v.choice("polarity")
            inputMin = v.number("input_min")
            inputMax = v.number("input_max")
            pulseMinMicroseconds = v.number("pulse_min_us")
            pulseMaxMicroseconds = v.number("pulse_max_us")
            dutyMin = v.number("duty_min")
            dutyMax = v.number("duty_max")
            invert = v.boolean("invert")
            slewRate = v.number("slew_rate")
            safeMicroseconds = v.number("safe_us")
            safeDuty = v.number("safe_duty")
        }

        /// Whether the mapping is a pulse range (µs) rather than a duty range.
        public var usesPulseRange: Bool { pulseMinMicroseconds != 0 || pulseMaxMicroseconds != 0 }
        /// Whether input_min/input_max were given.
        public var hasInputRange: Bool { inputMin != 0 || inputMax != 0 }
    }
}
