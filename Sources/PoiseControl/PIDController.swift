/// A PID controller for the real-time loop: a value type of a few floats, no allocation.
///
/// - Derivative on measurement: the D term acts on the measurement's rate of change (or a
///   measured rate such as the gyroscope's), so a setpoint step does not kick the output.
/// - Derivative low-pass: a first-order filter with `derivativeCutoffHz`.
/// - Anti-windup by conditional integration: while the output is clamped, the integrator
///   does not grow in the direction that pushes further into the clamp; the integral term
///   is also bounded by `integralLimit`.
/// - Bumpless enable: ``enable(holding:)`` preloads the integrator so the first output
///   equals the output the actuator already had.
public struct PIDController: Sendable {
    public var settings: PIDSettings
    /// The integral term's current contribution to the output (already times `integralGain`).
    public private(set) var integral: Float = 0
    /// The filtered measurement rate the D term uses.
    public private(set) var filteredRate: Float = 0
    var previousMeasurement: Float = .nan
    /// The last output.
    public private(set) var output: Float = 0

    public init(settings: PIDSettings) { self.settings = settings }

    /// Forgets all state (integrator, derivative history): the next update starts fresh.
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func reset() {
        integral = 0
        filteredRate = 0
        previousMeasurement = .nan
        output = 0
    }

    /// Starts from an actuator that already outputs `current`: the integrator takes up the
    /// difference so the first output does not jump (the P and D terms are added on top as
    /// they come, so a large error still acts at once).
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func enable(holding current: Float) {
        reset()
        let limit = min(settings.integralLimit, settings.outputLimit)
        integral = max(-limit, min(limit, current.isFinite ? current : 0))
        output = integral
    }

    /// One step with the measurement's rate taken from successive measurements.
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func update(setpoint: Float, measurement: Float, dt: Float) -> Float {
        let rate: Float = previousMeasurement.isNaN || dt <= 0 ? 0 : (measurement - previousMeasurement) / dt
        return update(setpoint: setpoint, measurement: measurement, measuredRate: rate, dt: dt)
    }

    /// One step with a measured rate of the measurement (a gyroscope for an angle loop).
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func update(setpoint: Float, measurement: Float, measuredRate: Float, dt: Float) -> Float {
        previousMeasurement = measurement
        let dt = dt > 0 && dt.isFinite ? dt : 0
        // First-order low-pass on the rate: alpha = dt / (dt + 1/(2πf)).
        let cutoff = settings.derivativeCutoffHz
        if cutoff > 0 {
            let alpha = dt / (dt + 1 / (2 * Float.pi * cutoff))
            filteredRate += alpha * (measuredRate - filteredRate)
        } else {
            filteredRate = measuredRate
        }
        let error = setpoint - measurement
        let proportional = settings.proportionalGain * error
        let derivative = -settings.derivativeGain * filteredRate
        let limit = settings.outputLimit
        let unclamped = proportional + integral + derivative
        // Conditional integration: integrate unless the output is clamped and the error
        // would drive it further into the clamp.
        let step = settings.integralGain * error * dt
        let saturatedHigh = unclamped >= limit && step > 0
        let saturatedLow = unclamped <= -limit && step < 0
        if !saturatedHigh && !saturatedLow && step.isFinite {
            let bound = min(settings.integralLimit, limit)
            integral = max(-bound, min(bound, integral + step))
        }
        let total = proportional + integral + derivative
        output = total.isFinite ? max(-limit, min(limit, total)) : .nan
        return output
    }
}
