import PoiseMath

// Frequency responses, for `poise spectrum` and the documentation; never in the tick.

extension BiquadCoefficients {
    /// Gain (ratio) and phase (radians, negative = lag) at `frequency` Hz, in `Double`.
    public func response(at frequency: Double, sampleRate: Double) -> (gain: Double, phase: Double) {
        let w = 2 * Double.pi * frequency / sampleRate
        // H(e^{jw}) = (b0 + b1 z⁻¹ + b2 z⁻²) / (1 + a1 z⁻¹ + a2 z⁻²), z⁻ᵏ = cos kw − j sin kw.
        let (c1, s1, c2, s2) = (_cos(w), _sin(w), _cos(2 * w), _sin(2 * w))
        let numRe = Double(b0) + Double(b1) * c1 + Double(b2) * c2
        let numIm = -(Double(b1) * s1 + Double(b2) * s2)
        let denRe = 1 + Double(a1) * c1 + Double(a2) * c2
        let denIm = -(Double(a1) * s1 + Double(a2) * s2)
        let gain = ((numRe * numRe + numIm * numIm) / (denRe * denRe + denIm * denIm)).squareRoot()
        var phase = _atan2(numIm, numRe) - _atan2(denIm, denRe)
        if phase > .pi { phase -= 2 * .pi } else if phase <= -.pi { phase += 2 * .pi }
        return (gain, phase)
    }
}

/// The response of a chain of sections: gains multiply, phases add.
public struct FilterResponse: Sendable, Equatable {
    /// Gain as a ratio.
    public var gain: Double
    /// Phase, radians; negative is lag. Unwrapped across sections, each section's in (−π, π].
    public var phase: Double

    public init(gain: Double, phase: Double) {
        self.gain = gain
        self.phase = phase
    }

    /// Gain in decibels.
    public var decibels: Double { 20 * _log10(max(gain, 1e-12)) }
    /// Phase in degrees.
    public var degrees: Double { phase * 180 / .pi }
    /// The delay the phase lag amounts to at `frequency` Hz, in seconds (positive = late).
    public func delay(at frequency: Double) -> Double { frequency > 0 ? -phase / (2 * .pi * frequency) : 0 }

    /// The chain of `sections` at `frequency`.
    public static func of(_ sections: [BiquadCoefficients], at frequency: Double, sampleRate: Double) -> FilterResponse {
        var total = FilterResponse(gain: 1, phase: 0)
        for section in sections {
            let r = section.response(at: frequency, sampleRate: sampleRate)
            total.gain *= r.gain
            total.phase += r.phase
        }
        return total
    }
}
