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

        /// A fault with nothing written: the defaults of the optional fields.
        public init() { self.init(kind: .nack, atSeconds: 0) }

        /// The keys of one list element, each bound to its field.
        static let bindings: [ConfigBinding<Self>] = {
            let d = Self()
            return [
                ConfigBinding.number("at_s", \.atSeconds, range: 0...86_400, unit: "s", defaults: d,
                                     doc: "When the fault starts, s on the loop's clock (the first tick is at 0).").required(),
                ConfigBinding.choice("kind", \.kind, defaults: d,
                                     doc: "`nack`: the MPU-9250 acknowledges nothing; `short_read`: its reads end early (EIO); `stuck_data`: its data registers freeze while data-ready still says new; `chip_reset`: it returns to its power-on registers (an instant); `magnetometer_lost`: the AK8963 stops answering; `output_write_failure`: writes to `channel` fail (EIO); `stall`: the loop's clock jumps by duration_s (the tick wakes that late).").required(),
                .number("duration_s", \.durationSeconds, range: 0...86_400, unit: "s", zeroTurnsOff: true, defaults: d,
                        doc: "How long the fault lasts; 0 until the end of the run. stall: the length of the jump (required); chip_reset: 0 (an instant)."),
                .string("channel", \.channel, defaults: d,
                        doc: "output_write_failure: the name of the outputs.channels entry whose writes fail."),
            ]
        }()
    }
}
