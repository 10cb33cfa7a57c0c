
/// How one output channel turns a signal into a physical value (settings; units in comments).
///
/// Pulse channels (sysfs PWM, PCA9685) clamp the signal to `inputMin…inputMax` and map it
/// linearly onto `outputMin…outputMax` high time; level channels (GPIO) compare it with a
/// threshold. Zero disables the slew limit, as in Fusion's settings.
public struct ChannelMapping: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// High time of a PWM period of `periodNanoseconds`.
        case pulse(periodNanoseconds: UInt32)
        /// A logic level: 1 when the signal ≥ `threshold`.
        case level(threshold: Float)
    }

    public var signal: OutputSignal
    public var kind: Kind
    /// Signal limits; the signal is clamped to them. Signal units.
    public var inputMin: Float
    public var inputMax: Float
    /// High time at `inputMin` and at `inputMax`, ns (pulse channels).
    public var outputMinNanoseconds: Float
    public var outputMaxNanoseconds: Float
    /// Swap the ends of the output range (a level channel outputs the opposite level).
    public var invert: Bool
    /// Largest change per second, signal units/s; 0 = unlimited.
    public var slewRate: Float
    /// Held while not live: high time in ns, or level 0/1.
    public var safeValue: UInt32

    public init(signal: OutputSignal, kind: Kind, inputMin: Float? = nil, inputMax: Float? = nil,
                outputMinNanoseconds: Float = 0, outputMaxNanoseconds: Float = 0,
                invert: Bool = false, slewRate: Float = 0, safeValue: UInt32 = 0) {
        self.signal = signal
        self.kind = kind
        self.inputMin = inputMin ?? signal.naturalRange.lowerBound
        self.inputMax = inputMax ?? signal.naturalRange.upperBound
        self.outputMinNanoseconds = outputMinNanoseconds
        self.outputMaxNanoseconds = outputMaxNanoseconds
        self.invert = invert
        self.slewRate = slewRate
        self.safeValue = safeValue
    }

    /// A servo or ESC: `minMicroseconds…maxMicroseconds` pulses every `periodMicroseconds`.
    public static func pulse(_ signal: OutputSignal, periodMicroseconds: Double,
                             minMicroseconds: Double, maxMicroseconds: Double,
                             safeMicroseconds: Double = 0, slewRate: Float = 0, invert: Bool = false) -> ChannelMapping {
        ChannelMapping(signal: signal, kind: .pulse(periodNanoseconds: UInt32(periodMicroseconds * 1000)),
                       outputMinNanoseconds: Float(minMicroseconds * 1000), outputMaxNanoseconds: Float(maxMicroseconds * 1000),
                       invert: invert, slewRate: slewRate, safeValue: UInt32(safeMicroseconds * 1000))
    }

    /// A duty-cycle channel (an H-bridge's PWM input): `dutyMin…dutyMax` of the period.
    public static func duty(_ signal: OutputSignal, periodMicroseconds: Double, dutyMin: Double = 0,
                            dutyMax: Double = 1, safeDuty: Double = 0, slewRate: Float = 0) -> ChannelMapping {
        let period = periodMicroseconds * 1000
        return ChannelMapping(signal: signal, kind: .pulse(periodNanoseconds: UInt32(period)),
                              outputMinNanoseconds: Float(dutyMin * period), outputMaxNanoseconds: Float(dutyMax * period),
                              slewRate: slewRate, safeValue: UInt32((safeDuty * period).rounded()))
    }

    /// A GPIO line: 1 while the signal ≥ `threshold`.
    public static func level(_ signal: OutputSignal, threshold: Float = 0.5, invert: Bool = false,
                             safeValue: Bool = false) -> ChannelMapping {
        ChannelMapping(signal: signal, kind: .level(threshold: threshold), invert: invert, safeValue: safeValue ? 1 : 0)
    }
}
