import Foundation
import PoiseFlightCore
import PoiseFusion
import PoiseMath

/// How far the estimate was from the simulation's truth, from the first tick the filter
/// reported its attitude established (initialised, converged) to the end: the whole result
/// of a run with nothing to control (the scripted-motion plant).
public struct EstimateError: Sendable {
    /// The first tick with the estimate established, s; nil: never.
    public var establishedAt: Double?
    /// The whole rotation between estimate and truth, degrees.
    public var worstAttitude = 0.0
    /// The angle between the estimated and the true vertical (pitch and roll together), degrees.
    public var worstInclination = 0.0
    var attitudeSquares = 0.0, inclinationSquares = 0.0, ticks = 0

    public var rmsAttitude: Double { ticks > 0 ? (attitudeSquares / Double(ticks)).squareRoot() : 0 }
    public var rmsInclination: Double { ticks > 0 ? (inclinationSquares / Double(ticks)).squareRoot() : 0 }

    mutating func add(_ r: TickRecord) {
        let established = !r.filterFlags.contains(.initialising) && !r.filterFlags.contains(.notConverged)
        guard established || establishedAt != nil, r.truth.isFinite, r.attitude.isFinite else { return }
        if establishedAt == nil { establishedAt = r.time }
        let attitude = Double(r.attitude.angle(to: r.truth)) * 180 / .pi
        // The world's up (ENU z) seen in the body frame, estimated and true.
        let up = SIMD3<Float>(0, 0, 1)
        let a = r.attitude.inverseRotate(up), b = r.truth.inverseRotate(up)
        let c = cross(a, b)
        let inclination = atan2(Double(dot(c, c)).squareRoot(), Double(dot(a, b))) * 180 / .pi
        worstAttitude = max(worstAttitude, attitude)
        worstInclination = max(worstInclination, inclination)
        attitudeSquares += attitude * attitude
        inclinationSquares += inclination * inclination
        ticks += 1
    }
}

extension SimulationReport {
    /// The summary of a run on the scripted-motion plant (`simulation.plant: motion`, or
    /// `auto` with no controller): what moved the board, and the estimate's error against
    /// the truth. Nothing is controlled, so no arming or balance figure applies.
    public func scriptedMotionLines(motion: String, seconds: Double, rateHz: Double, ticks: Int) -> [String] {
        func f(_ x: Double) -> String { String(format: "%.2f", x) }
        var lines = ["simulated \(f(seconds)) s of the scripted motion `\(motion)` (simulation.motion, repeated; no controller) "
            + "at \(rateHz) Hz (\(ticks) ticks)"]
        let e = estimateError
        if let from = e.establishedAt {
            lines.append("estimate established at \(f(from)) s; error against the truth from then to the end:")
            lines.append("  attitude    worst \(f(e.worstAttitude))°, rms \(f(e.rmsAttitude))°")
            lines.append("  inclination worst \(f(e.worstInclination))°, rms \(f(e.rmsInclination))° (pitch and roll together)")
            if e.rmsAttitude > e.rmsInclination + 5 {
                lines.append("  the rest is heading: an uncalibrated magnetometer (sensor.calibration; poise calibrate mag --board sim) or a 6D filter's drift")
            }
        } else {
            lines.append("the estimate was never established (see loop.gyroscope_bias_time and the filter's start-up)")
        }
        return lines
    }
}
