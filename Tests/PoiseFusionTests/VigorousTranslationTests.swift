import Foundation
import PoiseFusion
import PoiseMotion
import Testing
import PoiseMath

/// The first of the filter's two former failure classes: fast translation at several g. The
/// filter must not let the sign of the acceleration decide which samples reach the gravity
/// low-pass — an oscillation is zero-mean only if both halves of each swing are treated alike.
@Suite struct VigorousTranslationTests {
    /// Inclination error (angle between the true and estimated vertical), degrees, RMS over
    /// the shaking and the worst at its end.
    static func inclinationError(script: String, rate: Double = 285.7) throws -> (rms: Double, last: Double) {
        let motion = try MotionScript(parsing: script, name: "vigorous")
        var imu = try SimulatedIMU(script: motion, sampleRate: rate, errorModel: .default)
        var filter = PoiseFilter()
        var sum = 0.0, count = 0, last = 0.0
        let dt = Float(1 / rate)
        while let s = imu.next() {
            filter.update(InertialSample(accelerometer: s.accelerometer, gyroscope: s.gyroscope, magnetometer: s.magnetometer), dt: dt)
            guard Double(s.index) / rate > 5 else { continue }   // after the start-up
            let up = filter.attitude.inverseRotate(SIMD3(0, 0, 1)), trueUp = s.truth.inverseRotate(SIMD3(0, 0, 1))
            let angle = Double(acosf(max(-1, min(1, (up * trueUp).sum())))) * 180 / .pi
            sum += angle * angle
            count += 1
            last = angle
        }
        return ((sum / Double(max(count, 1))).squareRoot(), last)
    }

    /// Before the fix (norm test): 4 g at 3 Hz along 0,0.7,0.7 gave 53° RMS, along 0,0.3,1 77°;
    /// the vector test alone fed back on its own error along x (7° RMS). Now all below 1.6°:
    /// the 4 g 1.5 Hz shake, whose sine starts with a 4 m/s velocity step no filter can tell
    /// from tilt inside τ, scores 1.51° (VQF online on the same samples and rows: 1.61°; 1.22°
    /// and 1.23° over the shake alone); the rest after it, now judged on a band-limited
    /// deviation, begins 0.3 s later than a per-sample test declared it (1.46° then).
    @Test(arguments: [("4 g", "3", "0,0.7,0.7"), ("4 g", "3", "0,0.3,1"), ("4 g", "3", "1,0,0"),
                      ("4 g", "1.5", "0,0.7,0.7"), ("2.5 g", "5", "0.5,0.5,0.7"), ("1 g", "2", "0,0,1")])
    func shakingAtSeveralGLeavesTheTiltAlone(amplitude: String, frequency: String, axis: String) throws {
        let script = """
            rest 6
            shake 30 s amplitude \(amplitude) frequency \(frequency) hz along \(axis)
            rest 4
            """
        let error = try Self.inclinationError(script: script)
        #expect(error.rms < 1.6, "\(amplitude) \(frequency) Hz along \(axis): RMS \(error.rms)°, end \(error.last)°")
        #expect(error.last < 4, "\(amplitude) \(frequency) Hz along \(axis): end \(error.last)°")
    }
}
