extension PoiseConfiguration {
    /// `outputs`.
    public struct Outputs: Equatable, Sendable {
        public var pwm: [PWMOutput]
        public var gpio: [GPIOOutput]

        init(_ v: ConfigTable) {
            pwm = v.list("outputs.pwm").map {
                PWMOutput(chip: $0.integer("chip"), channel: $0.integer("channel"),
                          periodMicroseconds: $0.integer("period_us"),
                          safeDutyMicroseconds: $0.integer("safe_duty_us"), source: $0.choice("source"))
            }
            gpio = v.list("outputs.gpio").map {
                GPIOOutput(line: $0.integer("line"), safeValue: $0.integer("safe_value"), source: $0.choice("source"))
            }
        }
    }

    /// One element of `outputs.pwm`.
    public struct PWMOutput: Equatable, Sendable {
        public enum Source: String, CaseIterable, Sendable { case pitch, roll, yaw, controller }
        public var chip: Int
        public var channel: Int
        /// µs.
        public var periodMicroseconds: Int
        /// µs.
        public var safeDutyMicroseconds: Int
        public var source: Source
    }

    /// One element of `outputs.gpio`.
    public struct GPIOOutput: Equatable, Sendable {
        public enum Source: String, CaseIterable, Sendable { case faceDown, fault, atRest }
        public var line: Int
        /// 0 or 1.
        public var safeValue: Int
        public var source: Source
    }
}
