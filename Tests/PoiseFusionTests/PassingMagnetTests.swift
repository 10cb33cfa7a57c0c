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
}
