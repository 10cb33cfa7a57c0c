import Foundation
import PoiseFusion
import PoiseMath
import Testing

/// The hard-iron fit on its own: readings m = Rᵀh + b (+ noise) for scripted attitudes.
@Suite struct HardIronEstimatorTests {
    /// Earth's field in the heading-free earth frame, µT (45 µT, dip 65° down).
    static let earth = SIMD3<Float>(0, 19, -40.8)

    /// Feeds `seconds` of readings at 100 Hz while the body turns about `axis` (body frame) at
    /// `rate` rad/s and about body x at `wobble` rad/s, tilted by 30° about x; `field` gives the
    /// earth-frame field at time t. Turning about one axis alone leaves the offset along it
    /// unobservable, so the wobble makes every component observable.
    static func run(offset b: SIMD3<Float>, axis: SIMD3<Float>, rate: Float = 1, wobble: Float = 0.8,
                    seconds: Float = 20,
                    noise: Float = 0.3, field: (Float) -> SIMD3<Float> = { _ in earth },
                    attitudeError: (Float) -> Quaternion = { _ in .identity },
                    estimator: inout HardIronEstimator) {
        let dt: Float = 0.01
        let tilt = Quaternion(axis: SIMD3(1, 0, 0), angle: .pi / 6)
        var seed: UInt64 = 12345
        func gaussian() -> Float {  // a fixed pseudo-random sequence, so the test is repeatable
            var s: Float = 0
            for _ in 0..<4 {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                s += Float(seed >> 40) / Float(1 << 24) - 0.5
            }
            return s * 1.73
        }
        for i in 0..<Int(seconds / dt) {
            let t = Float(i) * dt
            let attitude = tilt * Quaternion(axis: axis, angle: rate * t)
                * Quaternion(axis: SIMD3(1, 0, 0), angle: wobble * t)
            let m = attitude.inverseRotate(field(t)) + b
                + noise * SIMD3(gaussian(), gaussian(), gaussian())
            estimator.observe(m, attitude: attitudeError(t) * attitude, dt: dt)
        }
    }

    static func norm(_ v: SIMD3<Float>) -> Float { (v * v).sum().squareRoot() }
    static func unit(_ v: SIMD3<Float>) -> SIMD3<Float> { v / norm(v) }

    /// What `minimumImprovement` 0.07 leaves unlearned in this 45 µT field, µT.
    static let deadband: Float = 0.07 * 45

    static func estimator() -> HardIronEstimator {
        HardIronEstimator(timeConstant: 5, minimumImprovement: 0.07, maximumResidual: 0.15)
    }

    @Test func anOffsetCarriedWithTheBodyIsLearnedWhileItTurns() {
        var e = Self.estimator()
        let b = SIMD3<Float>(20, -8, 5)
        Self.run(offset: b, axis: Self.unit(SIMD3(0.3, 0.5, 1)), estimator: &e)
        #expect(Self.norm(e.offset - b) < 1, "\(e.offset)")
    }

    @Test func withoutAnOffsetNothingIsLearned() {
        var e = Self.estimator()
        Self.run(offset: .zero, axis: Self.unit(SIMD3(0.3, 0.5, 1)), estimator: &e)
        #expect(e.offset == .zero)
    }

    @Test func atRestNothingIsLearned() {
        var e = Self.estimator()
        Self.run(offset: SIMD3(20, -8, 5), axis: SIMD3(0, 0, 1), rate: 0, wobble: 0, estimator: &e)
        #expect(e.offset == .zero)
    }

    /// Turning about body z alone cannot tell an offset along z from the earth's field: that
    /// component is not invented, the others are learned.
    @Test func alongTheOnlyRotationAxisTheOffsetIsLeftAlone() {
        var e = Self.estimator()
        Self.run(offset: SIMD3(15, 10, 12), axis: SIMD3(0, 0, 1), wobble: 0, estimator: &e)
        #expect(abs(e.offset.x - 15) < 1 && abs(e.offset.y - 10) < 1, "\(e.offset)")
        #expect(abs(e.offset.z) < 1, "\(e.offset)")
    }

    /// A field that changes in the room (walking past a steel cabinet, a magnet passing by) is
    /// no body-frame offset: a constant offset explains it badly. (A field that changes in
    /// step with the turning — at nearly the rate of the turn — looks, within one window,
    /// exactly like a carried magnet; nothing can tell them apart.)
    @Test func aFieldThatVariesInTheRoomIsNotTakenForAnOffset() {
        var e = Self.estimator()
        Self.run(offset: .zero, axis: Self.unit(SIMD3(0.3, 0.5, 1)),
                 field: { t in Self.earth + SIMD3(25 * sinf(0.15 * t), 0, 15 * cosf(3.1 * t)) },
                 estimator: &e)
        #expect(Self.norm(e.offset) < 2, "\(e.offset)")
    }

    @Test func aDisabledEstimatorKeepsZero() {
        var e = HardIronEstimator(enabled: false, timeConstant: 5, minimumImprovement: 0.07, maximumResidual: 0.15)
        Self.run(offset: SIMD3(20, -8, 5), axis: Self.unit(SIMD3(0.3, 0.5, 1)), estimator: &e)
        #expect(e.offset == .zero)
    }

    /// A magnet moved to another place on the body: the offset follows, to within what
    /// `minimumImprovement` lets it leave.
    @Test func anOffsetThatChangesIsFollowed() {
        var e = Self.estimator()
        let axis = Self.unit(SIMD3(0.3, 0.5, 1))
        Self.run(offset: SIMD3(20, -8, 5), axis: axis, estimator: &e)
        Self.run(offset: SIMD3(-6, 12, -9), axis: axis, seconds: 30, estimator: &e)
        #expect(Self.norm(e.offset - SIMD3(-6, 12, -9)) < Self.deadband, "\(e.offset)")
    }

    /// A magnet taken off again: the offset goes back to zero, to within the same.
    @Test func anOffsetThatGoesAwayIsUnlearned() {
        var e = Self.estimator()
        let axis = Self.unit(SIMD3(0.3, 0.5, 1))
        Self.run(offset: SIMD3(20, -8, 5), axis: axis, estimator: &e)
        Self.run(offset: .zero, axis: axis, seconds: 30, estimator: &e)
        #expect(Self.norm(e.offset) < Self.deadband, "\(e.offset)")
    }

    /// Each fit uses the attitude the filter had over its window, and an attitude a few degrees
    /// off leaves a misfit the fit partly takes for offset; the error wanders, so fits from
    /// later windows err differently. Once an offset is learned, later fits that do not beat
    /// it by `minimumImprovement` refine it: an average over windows, not the first one alone.
    @Test func laterFitsRefineALearnedOffset() {
        var e = Self.estimator()
        let b = SIMD3<Float>(20, -8, 5)
        let axis = Self.unit(SIMD3(0.3, 0.5, 1))
        // 3° off about a horizontal axis that turns once every 6 s.
        let wander: (Float) -> Quaternion = { t in
            Quaternion(axis: SIMD3(cosf(1.05 * t), sinf(1.05 * t), 0), angle: 3 * .pi / 180)
        }
        Self.run(offset: b, axis: axis, seconds: 8, attitudeError: wander, estimator: &e)
        let first = Self.norm(e.offset - b)
        Self.run(offset: b, axis: axis, seconds: 80, attitudeError: wander, estimator: &e)
        let refined = Self.norm(e.offset - b)
        print("attitude 3° off: first fit \(first) µT off, after 80 s more \(refined) µT")
        #expect(first > 0.5 && refined < first / 2, "\(first) → \(refined) µT")
    }

    /// A magnet moved on the body: after the move that the change forces, the offset keeps
    /// closing in on the new one instead of stopping within `minimumImprovement` of it.
    @Test func aChangedOffsetIsFollowedAllTheWay() {
        var e = Self.estimator()
        let axis = Self.unit(SIMD3(0.3, 0.5, 1))
        Self.run(offset: SIMD3(20, -8, 5), axis: axis, estimator: &e)
        Self.run(offset: SIMD3(-6, 12, -9), axis: axis, seconds: 60, estimator: &e)
        let left = Self.norm(e.offset - SIMD3(-6, 12, -9))
        print("offset changed: \(left) µT left after 60 s")
        #expect(left < 1, "\(e.offset)")
    }
}
