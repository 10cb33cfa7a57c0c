/// Gains and limits of one ``PIDController``. Units follow the loop the controller closes:
/// for a balancing robot's pitch loop the error is in rad and the output a wheel drive −1…1,
/// so `proportionalGain` is 1/rad, `integralGain` 1/(rad·s), `derivativeGain` s/rad.
@frozen
public struct PIDSettings: Sendable, Equatable {
    /// Output per unit of error.
    public var proportionalGain: Float
    /// Output per unit of error integrated over one second.
    public var integralGain: Float
    /// Output per unit of the measurement's rate of change (derivative on measurement, so a
    /// setpoint step gives no kick).
    public var derivativeGain: Float
    /// Corner frequency of the first-order low-pass on the derivative, Hz; 0 turns the
    /// filter off. A measured rate (a gyroscope) is filtered too.
    public var derivativeCutoffHz: Float
    /// The output is clamped to ±this.
    public var outputLimit: Float
    /// The integral term's contribution is clamped to ±this (≤ `outputLimit`).
    public var integralLimit: Float

    @inlinable
    public init(proportionalGain: Float = 0, integralGain: Float = 0, derivativeGain: Float = 0,
                derivativeCutoffHz: Float = 0, outputLimit: Float = 1, integralLimit: Float = 1) {
        self.proportionalGain = proportionalGain
        self.integralGain = integralGain
        self.derivativeGain = derivativeGain
        self.derivativeCutoffHz = derivativeCutoffHz
        self.outputLimit = outputLimit
        self.integralLimit = integralLimit
    }
}
