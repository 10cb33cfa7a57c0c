import Foundation
import PoiseFusion
import PoiseMath
import Testing

/// Issue 10, BROAD's stationary-magnet trials: a magnet the sensor moves past can turn the
/// horizontal field by 5–12° for seconds while its norm and dip stay within the disturbance
/// thresholds. Only the gyroscope can tell; once the heading is settled, the magnetometer may
/// move it by at most `magneticHeadingThreshold` per time constant.
@Suite struct PassingMagnetTests {
    /// Largest heading change (degrees) of a filter at rest, level, when the field turns by
    /// `turn` degrees about the vertical — norm and dip unchanged — for `duration` seconds.
    static func largestHeadingChange(turn: Float, duration: Double,
                                     settings: PoiseFilter.Settings = .default) -> Float {
        var filter = PoiseFilter(settings: settings)
        let rate = 100.0
        let gravity = SIMD3<Float>(0, 0, 9.81)
        func field(_ degrees: Float) -> SIMD3<Float> {
            // 20 µT horizontal towards `degrees` west of north (the body's y axis), 40 µT down.
            let a = degrees * .pi / 180
            return SIMD3(-20 * sinf(a), 20 * cosf(a), -40)
        }
        var before: Float = 0, largest: Float = 0
        for i in 0..<Int(60 * rate) {
            let t = Double(i) / rate
            let disturbed = t >= 30 && t < 30 + duration
            filter.update(InertialSample(accelerometer: gravity, gyroscope: .zero,
                                         magnetometer: field(disturbed ? turn : 0)),
                          dt: Float(1 / rate))
            let q = filter.attitude
            let heading = 2 * atan2f(q.z, q.w) * 180 / .pi
            if t < 30 { before = heading } else { largest = max(largest, abs(heading - before)) }
        }
        return largest
    }

    @Test func aFieldTurnedWithoutChangingNormOrDipMovesTheHeadingSlowly() {
        let limited = Self.largestHeadingChange(turn: 25, duration: 6)
        var settings = PoiseFilter.Settings.default
        settings.magneticHeadingThreshold = .infinity
        let unlimited = Self.largestHeadingChange(turn: 25, duration: 6, settings: settings)
        print("field turned 25° for 6 s: heading moved \(unlimited)° without the limit, \(limited)° with it")
        // 5° per 9 s time constant for 6 s: 3.3°; unlimited: 25° · (1 − e^(−6/9)) = 12°.
        #expect(unlimited > 10)
        #expect(limited < 4)
    }

    /// A small disagreement is corrected at full speed, as before.
    @Test func aSmallDisagreementIsCorrectedInFull() {
        var settings = PoiseFilter.Settings.default
        settings.magneticHeadingThreshold = .infinity
        let limited = Self.largestHeadingChange(turn: 4, duration: 30)
        let unlimited = Self.largestHeadingChange(turn: 4, duration: 30, settings: settings)
        #expect(abs(limited - unlimited) < 0.01)
        #expect(limited > 3.7)
    }

    /// Heading error (degrees) 3 s after a 20 s disturbance of the field's norm, during which
    /// the board turned 90° about the vertical with a gyroscope reading 10 % high (9° of
    /// gyroscope heading error).
    static func errorAfterARejectedDisturbance(settings: PoiseFilter.Settings = .default) -> Float {
        var filter = PoiseFilter(settings: settings)
        let rate: Float = 100, dt = 1 / rate
        let gravity = SIMD3<Float>(0, 0, 9.81)
        var heading: Float = 0   // true heading, rad, counter-clockwise from north
        var error: Float = 0
        for i in 0..<Int(53 * rate) {
            let t = Float(i) * dt
            let disturbed = t >= 30 && t < 50
            let turning = t >= 35 && t < 45
            let yawRate: Float = turning ? 9 * .pi / 180 : 0
            heading += yawRate * dt
            // The earth's field (20 µT north, 40 µT down) in the body, 1.5 times as strong while
            // disturbed (rejected by its norm).
            let c = cosf(heading), s = sinf(heading)
            let field = SIMD3<Float>(20 * s, 20 * c, -40) * (disturbed ? 1.5 : 1)
            filter.update(InertialSample(accelerometer: gravity, gyroscope: SIMD3(0, 0, 1.1 * yawRate),
                                         magnetometer: field), dt: dt)
            let q = filter.attitude
            error = (2 * atan2f(q.z, q.w) - heading) * 180 / .pi
        }
        return abs(error)
    }

    /// Right after a rejected disturbance the gyroscope may have drifted by more than the
    /// limit, so the correction is not limited then.
    @Test func afterARejectedDisturbanceTheHeadingRecoversAtFullSpeed() {
        var unlimited = PoiseFilter.Settings.default
        unlimited.magneticHeadingThreshold = .infinity
        let limited = Self.errorAfterARejectedDisturbance()
        let free = Self.errorAfterARejectedDisturbance(settings: unlimited)
        print("3 s after a rejected disturbance: \(limited)° heading error with the limit, \(free)° without")
        #expect(limited > 5)  // 9° · e^(−3/9)
        #expect(abs(limited - free) < 0.01)
    }
}
