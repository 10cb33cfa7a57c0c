/// One piece of a motion script, with its parameters in SI units (s, rad, rad/s, m/s², m, Hz).
///
/// Axes and directions are unit vectors in the BODY frame at the start of the segment.
/// Every segment has an exact closed form for its attitude, angular rate and linear
/// acceleration, so generated samples are ground truth, not numerical approximations.
public enum MotionSegment: Sendable, Equatable {
    /// Holding still.
    case rest(duration: Double)
    /// A rotation by `angle` about a fixed body `axis` with a minimum-jerk angle profile
    /// θ(τ) = angle·(10τ³ − 15τ⁴ + 6τ⁵), τ = t/duration: the angular rate and angular
    /// acceleration start and end at zero.
    case rotate(axis: SIMD3<Double>, angle: Double, duration: Double)
    /// A rotation about a fixed body `axis` at a constant `rate` (rad/s). The rate steps
    /// from and back to zero at the ends, like a turntable switched on and off.
    case spin(axis: SIMD3<Double>, rate: Double, duration: Double)
    /// An oscillating rotation θ(t) = amplitude·sin(2π·frequency·t) about a fixed body axis.
    case wobble(axis: SIMD3<Double>, amplitude: Double, frequency: Double, duration: Double)
    /// A translational shake with no rotation: linear acceleration
    /// amplitude·sin(2π·frequency·t) along a fixed body `direction`.
    case shake(direction: SIMD3<Double>, amplitude: Double, frequency: Double, duration: Double)
    /// A translation by `distance` metres along a body `direction` with a minimum-jerk
    /// position profile: acceleration starts and ends at zero, velocity ends at zero.
    case move(direction: SIMD3<Double>, distance: Double, duration: Double)
    /// Hand strokes along a body `direction`, `frequency` per second: each stroke is a gentle
    /// push (a half-sine of acceleration) ended by a sharp stop (a half-sine of
    /// −`stopAcceleration` peak lasting `stopDuration`), then a smooth (minimum-jerk) return
    /// over the second half of the period. Every stroke's velocity and displacement return to
    /// zero, so the acceleration averages to zero, but its large values all point one way.
    case strokes(direction: SIMD3<Double>, frequency: Double, stopAcceleration: Double,
                 stopDuration: Double, duration: Double)

    /// Length of the segment in seconds.
    public var duration: Double {
        switch self {
        case .rest(let d), .rotate(_, _, let d), .spin(_, _, let d), .wobble(_, _, _, let d),
            .shake(_, _, _, let d), .move(_, _, let d), .strokes(_, _, _, _, let d):
            return d
        }
    }

    /// Whether the segment is part of a movement phase (everything except rest).
    public var isMovement: Bool {
        if case .rest = self { return false }
        return true
    }
}

extension MotionSegment {
    /// Why this segment cannot be generated (hand-built segments are not checked by a
    /// parser), or `nil` when it is fine.
    public var problem: String? {
        func finite(_ values: Double...) -> Bool { values.allSatisfy(\.isFinite) }
        func unit(_ v: SIMD3<Double>) -> Bool {
            let n = (v * v).sum()
            return n.isFinite && abs(n - 1) < 1e-6
        }
        guard duration > 0, duration.isFinite else { return "duration must be positive and finite, got \(duration)" }
        switch self {
        case .rest:
            return nil
        case .rotate(let axis, let angle, _):
            return unit(axis) && finite(angle) ? nil : "rotate needs a unit axis and a finite angle"
        case .spin(let axis, let rate, _):
            return unit(axis) && finite(rate) ? nil : "spin needs a unit axis and a finite rate"
        case .wobble(let axis, let amplitude, let frequency, _):
            return unit(axis) && finite(amplitude, frequency) && frequency > 0
                ? nil : "wobble needs a unit axis, a finite amplitude and a positive frequency"
        case .shake(let direction, let amplitude, let frequency, _):
            return unit(direction) && finite(amplitude, frequency) && frequency > 0
                ? nil : "shake needs a unit direction, a finite amplitude and a positive frequency"
        case .move(let direction, let distance, _):
            return unit(direction) && finite(distance) ? nil : "move needs a unit direction and a finite distance"
        case .strokes(let direction, let frequency, let stop, let stopDuration, _):
            guard unit(direction), finite(frequency, stop, stopDuration), frequency > 0 else {
                return "strokes need a unit direction, a finite stop and a positive frequency"
            }
            return stopDuration > 0 && stopDuration < 0.5 / frequency
                ? nil : "a stroke's stop must be shorter than half its period"
        }
    }
}

/// Minimum-jerk profile s(τ) = 10τ³ − 15τ⁴ + 6τ⁵ on τ ∈ [0, 1] and its derivatives.
enum MinimumJerk {
    static func position(_ t: Double) -> Double { t * t * t * (10 + t * (-15 + 6 * t)) }
    static func velocity(_ t: Double) -> Double { t * t * (30 + t * (-60 + 30 * t)) }
    static func acceleration(_ t: Double) -> Double { t * (60 + t * (-180 + 120 * t)) }
}
