extension PoiseConfiguration {
    /// One element of `simulation.faults`: a fault the simulated board rehearses.
    public struct Fault: Equatable, Sendable {
        public enum Kind: String, CaseIterable, Sendable {
            case nack
            case shortRead = "short_read"
            case stuckData = "stuck_data"
            case chipReset = "chip_reset"
            case magnetometerLost = "magnetometer_lost"
            case outputWriteFailure = "output_write_failure"
            case stall
        }

        public var kind: Kind
        /// s on the loop's clock.
        public var atSeconds: Double
        /// s; 0 = until the end (stall: the jump; chip_reset: always 0).
        public var durationSeconds: Double
        /// output_write_failure: the output channel's name; "" otherwise.
        public var channel: String

        public init(kind: Kind, atSeconds: Double, durationSeconds: Double = 0, channel: String = "") {
            self.kind = kind
            self.atSeconds = atSeconds
            self.durationSeconds = durationSeconds
            self.channel = channel
        }

        init(_ v: ConfigTable) {
            kind = v.choice("kind")
            atSeconds = v.number("at_s")
            durationSeconds = v.number("duration_s")
            channel = v.string("channel")
        }
    }
}

extension PoiseConfiguration.Simulation {
    static func faults(_ v: ConfigTable) -> [PoiseConfiguration.Fault] {
        v.list("simulation.faults").map(PoiseConfiguration.Fault.init)
    }
}
