import PoiseMath

/// The gyroscope filters of ``GyroFilterSettings`` as the tick runs them: fixed-size storage,
/// throttle notches redesigned every sample from the motor command, nothing allocated.
///
/// With every filter off ``apply(_:throttle:)`` returns its input untouched, so a
/// configuration without gyroscope filters computes exactly what it did before they existed.
@frozen
public struct GyroFilterBank: Sendable {
    @inlinable public static var sectionCapacity: Int { 16 }

    public let isActive: Bool
    public let sampleRate: Float
    @usableFromInline var lowPass: Biquad3
    @usableFromInline let hasLowPass: Bool
    @usableFromInline let notchSettings: InlineArray<4, GyroNotchSettings>
    /// Slot s, harmonic h (0-based) at index s · maximumHarmonics + h.
    @usableFromInline var sections: InlineArray<16, Biquad3>
    @usableFromInline var started = false

    /// No filtering.
    public static let off = GyroFilterBank(settings: .default, sampleRate: 1)

    /// The filters of `settings` at a gyroscope sample rate of `sampleRate` Hz.
    public init(settings: GyroFilterSettings, sampleRate: Float) {
        self.sampleRate = sampleRate
        isActive = settings.isActive && sampleRate > 0
        hasLowPass = settings.lowPassCutoff > 0
        lowPass = Biquad3(settings.lowPassSection(sampleRate: sampleRate))
        var slots = InlineArray<4, GyroNotchSettings>(repeating: GyroNotchSettings())
        var sections = InlineArray<16, Biquad3>(repeating: Biquad3())
        for s in 0..<min(4, settings.notches.count) {
            var notch = settings.notches[s]
            notch.harmonics = max(1, min(notch.harmonics, GyroFilterSettings.maximumHarmonics))
            slots[s] = notch
            let center = notch.center(throttle: notch.referenceThrottle)
            for h in 0..<notch.harmonics where notch.mode != .off {
                sections[s * GyroFilterSettings.maximumHarmonics + h] =
                    Biquad3(notch.section(harmonic: h + 1, center: center, sampleRate: sampleRate))
            }
        }
        notchSettings = slots
        self.sections = sections
    }

    /// Filters one gyroscope sample (rad/s, any frame); `throttle` is the mean motor command
    /// (0…1) the throttle notches follow.
    @inlinable
    public mutating func apply(_ rate: SIMD3<Float>, throttle: Float) -> SIMD3<Float> {
        guard isActive else { return rate }
        if !started {
            // Start in steady state on the first sample: no ring from a step out of zero.
            started = true
            lowPass.settle(at: rate)
            for i in 0..<16 {
                var section = sections[i]
                section.settle(at: rate)
                sections[i] = section
            }
        }
        var x = hasLowPass ? lowPass.step(rate) : rate
        for s in 0..<4 {
            let notch = notchSettings[s]
            if !notch.isOn { continue }
            let center = notch.center(throttle: throttle)
            for h in 0..<notch.harmonics {
                let i = s * 4 + h   // 4: GyroFilterSettings.maximumHarmonics
                // Whole-element get and set (no mutation through the subscript's accessor
                // coroutine, which the release build's allocation check cannot see into).
                var section = sections[i]
                if notch.tracksThrottle {
                    section.coefficients = notch.section(harmonic: h + 1, center: center, sampleRate: sampleRate)
                }
                x = section.step(x)
                sections[i] = section
            }
        }
        // A non-finite sample would stay in the sections' state for good: hand the sample on
        // as it came (the tick's own checks see it) and start again, settled, on the next one.
        let difference = x - x   // NaN exactly where x is NaN or ±∞
        guard all(difference .== difference) else {
            started = false
            return rate
        }
        return x
    }
}
