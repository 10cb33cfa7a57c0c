import PoiseMath

/// Second-order Butterworth-type low-pass filter in state-variable form, for `PoiseFilter`.
///
/// The state is the output `y` and its rate `ẏ`, advanced by semi-implicit Euler steps of
/// `ÿ = ω²(u − y) − 2ζω ẏ` with ζ = 1/√2 and ω = √2/τ (so the DC group delay is τ). Unlike a
/// direct-form IIR with poles a hair from 1, this form stays well conditioned in Float at
/// cut-offs far below the sample rate, and it yields `ẏ`, the filtered rate of change, for
/// free. Until τ has elapsed the output is the plain mean of the inputs so far, which gives a
/// fast, unbiased start.
@frozen
public struct PoiseFilterLowPass<Value: SIMD & Sendable>: Sendable where Value.Scalar == Float {
    /// Filtered value.
    public var output: Value
    /// Filtered rate of change of the input, per second.
    public var rate: Value
    /// Time spent in the averaging start-up phase, s.
    public var averagedTime: Float
    /// Samples averaged so far.
    public var averagedCount: Float
    /// Time constant τ, s.
    public let timeConstant: Float
    @usableFromInline let omegaSquared: Float
    @usableFromInline let twoZetaOmega: Float
    @usableFromInline let maximumStep: Float

    @inlinable
    public init(timeConstant: Float) {
        let tau = timeConstant.isFinite && timeConstant > 0 ? timeConstant : 1
        self.timeConstant = tau
        let omega = 1.41421356 / tau
        omegaSquared = omega * omega
        twoZetaOmega = 1.41421356 * omega
        // Semi-implicit Euler is stable and accurate for ω·dt well below 1.
        maximumStep = 0.25 / omega
        output = Value()
        rate = Value()
        averagedTime = 0
        averagedCount = 0
    }

    /// True while the output is still the start-up mean.
    @inlinable public var isAveraging: Bool { averagedTime < timeConstant }

    /// Feeds one input taken `dt` seconds after the previous one; returns the new output.
    @inlinable @inline(__always)
    public mutating func update(_ input: Value, dt: Float) -> Value {
        if averagedTime < timeConstant {
            averagedTime += dt
            averagedCount += 1
            output += (input - output) * (1 / averagedCount)
            return output
        }
        let h = min(dt, maximumStep)
        rate += ((input - output) * omegaSquared - rate * twoZetaOmega) * h
        output += rate * h
        return output
    }

    /// Restarts the start-up averaging.
    @inlinable
    public mutating func reset() {
        output = Value()
        rate = Value()
        averagedTime = 0
        averagedCount = 0
    }
}
