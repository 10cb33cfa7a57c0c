import PoiseFlightCore
import PoiseMath

/// How well a simulated balancing robot followed its drive script (`poise simulate`): its
/// true speed against the commanded (acceleration-limited) speed, the controller's speed
/// estimate against the truth, and the body's true pitch against the lean the setpoint asks
/// for (trim plus the lean into the commanded acceleration).
///
/// "After settling" leaves out the first `settleTime` after arming and `settleTime` after
/// the lean setpoint last moved by more than `leanTolerance`: the body follows a new lean
/// with a lag. A tolerance, not exact equality: the acceleration limiter approaches a new
/// speed exponentially, so in Float its acceleration keeps changing by tiny amounts for
/// tens of seconds after a ramp, which kept the window shut (or opened it at a random
/// tick) and left cruise and standing largely unmeasured.
public struct DriveTracking: Sendable {
    public var settleTime = 1.0
    /// A lean setpoint change smaller than this (rad; 0.05°, 1/40 of the 2° bar) does not
    /// restart the settling time.
    public var leanTolerance = 0.05 * Double.pi / 180
    /// A drive setpoint other than standing still came.
    public private(set) var driven = false
    /// Largest |true − commanded speed|, m/s, and its root mean square, after settling.
    public private(set) var worstSpeedError = 0.0
    public var rmsSpeedError: Double { samples > 0 ? (speedErrorSquares / Double(samples)).squareRoot() : 0 }
    /// Largest |speed estimate − true speed|, m/s, after settling.
    public private(set) var worstEstimateError = 0.0
    /// Largest |true pitch − lean setpoint|, degrees, after settling.
    public private(set) var worstLeanError = 0.0
    /// Largest commanded and true speeds, m/s.
    public private(set) var topCommandedSpeed = 0.0, topTrueSpeed = 0.0
    var speedErrorSquares = 0.0
    var samples = 0
    /// The lean setpoint at the last restart of the settling time, rad.
    var settlingLean = 0.0
    var settledFrom = Double.infinity
    var armedAt: Double?

    public init() {}

    /// Takes one tick's record.
    public mutating func add(_ r: TickRecord) {
        let d = r.drive
        if d.setpoint.speed != 0 || d.setpoint.turnRate != 0 { driven = true }
        guard r.armState == .armed, d.trueSpeed.isFinite else {
            armedAt = nil
            return
        }
        let lean = Double(d.leanSetpoint)
        if armedAt == nil {
            armedAt = r.time
            settledFrom = r.time + settleTime
            settlingLean = lean
        }
        if abs(lean - settlingLean) > leanTolerance {
            settledFrom = max(settledFrom, r.time + settleTime)
            settlingLean = lean
        }
        topCommandedSpeed = max(topCommandedSpeed, abs(Double(d.commandedSpeed)))
        topTrueSpeed = max(topTrueSpeed, abs(Double(d.trueSpeed)))
        guard r.time >= settledFrom else { return }
        let speedError = abs(Double(d.trueSpeed - d.commandedSpeed))
        worstSpeedError = max(worstSpeedError, speedError)
        speedErrorSquares += speedError * speedError
        samples += 1
        worstEstimateError = max(worstEstimateError, abs(Double(d.speedEstimate - d.trueSpeed)))
        let pitch = Double(EulerAngles(r.truth).pitch - d.leanSetpoint) * 180 / .pi
        worstLeanError = max(worstLeanError, abs(pitch))
    }
}
