import Foundation
import PoiseFusion
import Testing
import PoiseMath

/// BROAD's stationary-magnet trials: a magnet the sensor moves past can turn the
/// horizontal field by 5–12° for seconds while its norm and dip stay within the disturbance
/// thresholds. Only the gyroscope can tell; once the heading is settled, the magnetometer may
/// move it by at most `magneticHeadingThreshold` per time constant.
@Suite struct PassingMagnetTests {
    /// A level board's sample: at rest but for `yawRate` (rad/s, read by the gyroscope), with
    /// a field of 20 µT horizontal and 40 µT down, times `strength`, whose horizontal part
    /// points `angle` rad anticlockwise from the body's y axis.
    static func levelSample(fieldAngle angle: Float, strength: Float = 1,
                            yawRate: Float = 0) -> InertialSample {
        InertialSample(accelerometer: SIMD3(0, 0, 9.81), gyroscope: SIMD3(0, 0, yawRate),
                       magnetometer: SIMD3(-20 * sinf(angle), 20 * cosf(angle), -40) * strength)
    }

    /// The estimate's heading, rad (anticlockwise about world z).
    static func heading(_ filter: PoiseFilter) -> Float {
        2 * atan2f(filter.attitude.z, filter.attitude.w)
    }

    /// Largest heading change (degrees) of a filter at rest, level, when the field turns by
    /// `turn` degrees about the vertical — norm and dip unchanged — for `duration` seconds.
    static func largestHeadingChange(turn: Float, duration: Double,
                                     settings: PoiseFilter.Settings = .default) -> Float {
        var filter = PoiseFilter(settings: settings)
        let rate = 100.0
        var before: Float = 0, largest: Float = 0
        for i in 0..<Int(60 * rate) {
            let t = Double(i) / rate
            let disturbed = t >= 30 && t < 30 + duration
            filter.update(Self.levelSample(fieldAngle: disturbed ? turn * .pi / 180 : 0),
                          dt: Float(1 / rate))
            let heading = Self.heading(filter) * 180 / .pi
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
        var heading: Float = 0   // true heading, rad, counter-clockwise from north
        var error: Float = 0
        for i in 0..<Int(53 * rate) {
            let t = Float(i) * dt
            let disturbed = t >= 30 && t < 50
            let turning = t >= 35 && t < 45
            let yawRate: Float = turning ? 9 * .pi / 180 : 0
            heading += yawRate * dt
            // The earth's field, 1.5 times as strong while disturbed (rejected by its norm), seen
            // from a body turned by `heading`.
            filter.update(Self.levelSample(fieldAngle: -heading, strength: disturbed ? 1.5 : 1,
                                           yawRate: 1.1 * yawRate), dt: dt)
            error = (Self.heading(filter) - heading) * 180 / .pi
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
