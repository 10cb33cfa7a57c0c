import PoiseMath

/// The five coefficients of a second-order section, normalised so a0 = 1:
/// y[n] = b0·x[n] + b1·x[n−1] + b2·x[n−2] − a1·y[n−1] − a2·y[n−2].
///
/// The designs are the bilinear-transform forms of Robert Bristow-Johnson's audio EQ
/// cookbook (standard mathematics), in `Float` so a harmonic notch can be redesigned inside
/// the tick; `sin`/`cos` are the C library's, which never allocate.
@frozen
public struct BiquadCoefficients: Sendable, Equatable {
    public var b0: Float
    public var b1: Float
    public var b2: Float
    public var a1: Float
    public var a2: Float

    @inlinable
    public init(b0: Float, b1: Float, b2: Float, a1: Float, a2: Float) {
        self.b0 = b0
        self.b1 = b1
        self.b2 = b2
        self.a1 = a1
        self.a2 = a2
    }

    // Computed, not stored: the tick redesigns sections, and a stored static's lazy accessor is
    // a call the release build's `@_noAllocation` check cannot see into.

    /// Output equals input.
    @inlinable public static var passThrough: BiquadCoefficients { BiquadCoefficients(b0: 1, b1: 0, b2: 0, a1: 0, a2: 0) }

    /// Highest centre or cut-off a section is designed for, as a fraction of the sample rate;
    /// above it the bilinear warp squeezes the response against Nyquist, so the section passes.
    @inlinable public static var highestFraction: Float { 0.45 }

    /// First-order low-pass (one pole, one zero at Nyquist), −3 dB at `cutoff` Hz.
    @inlinable
    public static func firstOrderLowPass(cutoff: Float, sampleRate: Float) -> BiquadCoefficients {
        guard cutoff > 0, sampleRate > 0, cutoff < highestFraction * sampleRate else { return .passThrough }
        let w = Float.pi * cutoff / sampleRate
        let k = _sin(w) / _cos(w)   // tan(πf/fs): the bilinear pre-warp
        let norm = 1 / (1 + k)
        return BiquadCoefficients(b0: k * norm, b1: k * norm, b2: 0, a1: (k - 1) * norm, a2: 0)
    }

    /// Second-order Butterworth low-pass (Q = 1/√2), −3 dB at `cutoff` Hz.
    @inlinable
    public static func secondOrderLowPass(cutoff: Float, sampleRate: Float) -> BiquadCoefficients {
        guard cutoff > 0, sampleRate > 0, cutoff < highestFraction * sampleRate else { return .passThrough }
        let w0 = 2 * Float.pi * cutoff / sampleRate
        let c = _cos(w0)
        let alpha = _sin(w0) * 0.70710678   // sin ω0 / (2Q), Q = 1/√2
        let norm = 1 / (1 + alpha)
        let b = (1 - c) * 0.5 * norm
        return BiquadCoefficients(b0: b, b1: 2 * b, b2: b, a1: -2 * c * norm, a2: (1 - alpha) * norm)
    }

    /// A notch of finite depth: gain 1 at DC and Nyquist, `−attenuation` dB exactly at
    /// `center` Hz. The poles are those of the cookbook's notch with Q = centre / `bandwidth`
    /// (so `bandwidth` is the −3 dB width of an infinitely deep notch); the zeros sit a factor
    /// 10^(−dB/20) closer to the unit circle's damping, which sets the depth.
    ///
    /// Designed on the unit circle itself (no bilinear warp), so any centre below Nyquist is
    /// exact: a rotor turning at 0.45–0.5 of the loop rate is still notched, where a notch that
    /// let go would hand the D terms the whole vibration.
    @inlinable
    public static func notch(center: Float, bandwidth: Float, attenuation: Float, sampleRate: Float) -> BiquadCoefficients {
        guard center > 0, bandwidth > 0, attenuation > 0, sampleRate > 0,
              center < sampleRate / 2 else { return .passThrough }
        let w0 = 2 * Float.pi * center / sampleRate
        let c = _cos(w0)
        // tan(π·width/rate) makes the −3 dB width exactly `bandwidth` at any centre (the notch
        // is half the sum of 1 and an all-pass); the cookbook's sin(ω0)/2Q is that only well
        // below Nyquist: at 185 Hz of 400 it narrowed an 86 Hz notch to 7 Hz.
        let halfWidth = Float.pi * min(bandwidth, 0.49 * sampleRate) / sampleRate
        let alpha = _sin(halfWidth) / _cos(halfWidth)
        let depth = _exp(-attenuation * (2.302585093 / 20))   // 10^(−dB/20)
        let norm = 1 / (1 + alpha)
        return BiquadCoefficients(b0: (1 + alpha * depth) * norm, b1: -2 * c * norm, b2: (1 - alpha * depth) * norm,
                                  a1: -2 * c * norm, a2: (1 - alpha) * norm)
    }
}

/// One second-order section run on the three gyroscope axes at once (direct form I: its state
/// is past inputs and outputs, so a coefficient change mid-stream does not upset it).
@frozen
public struct Biquad3: Sendable {
    public var coefficients: BiquadCoefficients
    @usableFromInline var x1: SIMD3<Float> = .zero
    @usableFromInline var x2: SIMD3<Float> = .zero
    @usableFromInline var y1: SIMD3<Float> = .zero
    @usableFromInline var y2: SIMD3<Float> = .zero

    @inlinable
    public init(_ coefficients: BiquadCoefficients = .passThrough) {
        self.coefficients = coefficients
    }

    /// Starts the section in steady state on a constant input (no start-up transient).
    @inlinable
    public mutating func settle(at value: SIMD3<Float>) {
        let k = coefficients
        let dcGain = (k.b0 + k.b1 + k.b2) / (1 + k.a1 + k.a2)
        x1 = value
        x2 = value
        y1 = value * dcGain
        y2 = value * dcGain
    }

    @inlinable @inline(__always)
    public mutating func step(_ x: SIMD3<Float>) -> SIMD3<Float> {
        let k = coefficients
        var y = x * k.b0
        y += x1 * k.b1
        y += x2 * k.b2
        y -= y1 * k.a1
        y -= y2 * k.a2
        x2 = x1
        x1 = x
        y2 = y1
        y1 = y
        return y
    }
}
