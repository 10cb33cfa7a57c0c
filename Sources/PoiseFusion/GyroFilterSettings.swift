import PoiseMath

/// The gyroscope's own filters, run on every axis before the attitude filter and the
/// controllers see a rate: a low-pass and up to ``GyroFilterSettings/notchCount`` notches.
/// Everything off by default, so a file that does not ask for them runs as before.
public struct GyroFilterSettings: Sendable, Equatable {
    /// Notch slots a configuration may fill.
    @inlinable public static var notchCount: Int { 4 }
    /// Harmonics (1 = the fundamental only) a throttle notch may follow.
    @inlinable public static var maximumHarmonics: Int { 4 }

    /// Low-pass −3 dB frequency, Hz; 0 = no low-pass.
    public var lowPassCutoff: Float = 0
    /// 1 (first order, 6 dB/octave) or 2 (second-order Butterworth, 12 dB/octave).
    public var lowPassOrder: Int = 2
    /// Exactly ``notchCount`` slots; a slot whose mode is `.off` costs nothing.
    public var notches: [GyroNotchSettings] = Array(repeating: GyroNotchSettings(), count: GyroFilterSettings.notchCount)

    public init() {}

    public static let `default` = GyroFilterSettings()

    /// True when some filter is on.
    public var isActive: Bool { lowPassCutoff > 0 || notches.contains { $0.mode != .off } }
}

/// One notch: where it sits and how it follows the motors.
@frozen
public struct GyroNotchSettings: Sendable, Equatable {
    /// How the centre is chosen.
    public enum Mode: String, Sendable, CaseIterable {
        /// Not filtering.
        case off
        /// A fixed centre (a frame resonance, a rotor on a governor).
        case `static`
        /// The centre follows the mean motor command: `center · √(throttle / reference_throttle)`,
        /// never below `minimumFrequency` (the throttle-based mode of ArduPilot's harmonic notch:
        /// a propeller's thrust goes with the square of its speed).
        case throttle
    }

    public var mode: Mode = .off

    // Switches, not `==`: comparing a String-backed enum compares strings, which the checked
    // tick may not do.
    /// The notch filters (its mode is not `.off`).
    @inlinable public var isOn: Bool {
        switch mode {
        case .off: false
        case .static, .throttle: true
        }
    }
    /// The centre follows the throttle.
    @inlinable public var tracksThrottle: Bool {
        switch mode {
        case .throttle: true
        case .off, .static: false
        }
    }
    /// Centre, Hz; for `.throttle`, the centre at `referenceThrottle` (the hover).
    public var centerFrequency: Float = 80
    /// Width, Hz. A throttle notch keeps centre / width constant as it moves, and each
    /// harmonic is as much wider as it is higher.
    public var bandwidth: Float = 40
    /// Depth at the centre, dB.
    public var attenuation: Float = 40
    /// Notches at 1×, 2×, … `harmonics`× the centre (1…``GyroFilterSettings/maximumHarmonics``).
    public var harmonics: Int = 1
    /// Mean motor command (0…1) at which the motors turn at `centerFrequency`.
    public var referenceThrottle: Float = 0.35
    /// Lowest centre a throttle notch moves to, Hz; 0 = the centre itself (it only moves up).
    public var minimumFrequency: Float = 0

    public init() {}

    /// The fundamental's centre at `throttle` (mean motor command, 0…1), Hz.
    @inlinable
    public func center(throttle: Float) -> Float {
        guard tracksThrottle, referenceThrottle > 0 else { return centerFrequency }
        let t = max(0, throttle) / referenceThrottle
        let tracked = centerFrequency * squareRoot(t)   // PoiseMath's: the checked tick cannot call Float.squareRoot()
        let floor = minimumFrequency > 0 ? minimumFrequency : centerFrequency
        return tracked > floor ? tracked : floor
    }

    /// The section of harmonic `h` (1 = fundamental) with the fundamental at `center` Hz.
    ///
    /// The filters run on the gyroscope as the tick samples it: a harmonic above half the
    /// sample rate is there at its alias, so the notch sits on the alias (``folded(_:sampleRate:)``),
    /// keeping the harmonic's centre/width. An alias below a quarter of `centerFrequency` is
    /// left alone: a notch that deep in the loops' band would cost them more phase than the
    /// vibration it took out.
    @inlinable
    public func section(harmonic h: Int, center: Float, sampleRate: Float) -> BiquadCoefficients {
        let frequency = Float(h) * center
        let alias = Self.folded(frequency, sampleRate: sampleRate)
        guard alias == frequency || alias >= centerFrequency / 4 else { return .passThrough }
        return .notch(center: alias, bandwidth: bandwidth * alias / centerFrequency, attenuation: attenuation, sampleRate: sampleRate)
    }

    /// Where a tone of `frequency` Hz appears in samples taken `sampleRate` times a second:
    /// folded into 0…sampleRate/2 (f → |f − k·sampleRate| for the nearest whole k).
    @inlinable
    public static func folded(_ frequency: Float, sampleRate: Float) -> Float {
        // (NaN fails the guard and comes back as it went: the notch it asks for passes.)
        guard sampleRate > 0, frequency > sampleRate / 2, frequency < 1e7 else { return frequency }
        // Whole turns by Int truncation (positive here): a rounding rule is a type the
        // checked tick may not touch.
        let remainder = frequency - sampleRate * Float(Int(frequency / sampleRate))
        return remainder > sampleRate / 2 ? sampleRate - remainder : remainder
    }
}

extension GyroFilterSettings {
    /// The low-pass section (pass-through when off).
    public func lowPassSection(sampleRate: Float) -> BiquadCoefficients {
        guard lowPassCutoff > 0 else { return .passThrough }
        return lowPassOrder == 1 ? .firstOrderLowPass(cutoff: lowPassCutoff, sampleRate: sampleRate)
                                 : .secondOrderLowPass(cutoff: lowPassCutoff, sampleRate: sampleRate)
    }

    /// Every section that filters at mean motor command `throttle`, in the order the tick runs
    /// them (for responses and phase delays; the tick keeps its own fixed-size copy).
    public func sections(throttle: Float, sampleRate: Float) -> [BiquadCoefficients] {
        var result: [BiquadCoefficients] = []
        if lowPassCutoff > 0 { result.append(lowPassSection(sampleRate: sampleRate)) }
        for notch in notches where notch.mode != .off {
            let center = notch.center(throttle: throttle)
            for h in 1...max(1, min(notch.harmonics, Self.maximumHarmonics)) {
                result.append(notch.section(harmonic: h, center: center, sampleRate: sampleRate))
            }
        }
        return result
    }
}
