import Foundation
import PoiseFusion
import PoiseMath
import PoiseMotion
import Testing

/// Inclination under sustained and skewed acceleration, and a sensor away from the
/// centre of rotation, on the project's own synthetic motions (MPU-9250 error model).
@Suite struct SkewedAccelerationTests {
    /// Inclination error RMS (angle between the true and estimated vertical), degrees, over the
    /// script's movement samples.
    static func inclinationRMS(_ script: MotionScript, rate: Double, settings: PoiseFilter.Settings = .default,
                               model: SensorErrorModel = .default, seed: UInt64 = 1) throws -> Double {
        var model = model
        model.seed = seed
        var imu = try SimulatedIMU(script: script, sampleRate: rate, errorModel: model)
        var filter = PoiseFilter(settings: settings)
        var sum = 0.0, count = 0
        let dt = Float(1 / rate)
        while let s = imu.next() {
            filter.update(InertialSample(accelerometer: s.accelerometer, gyroscope: s.gyroscope), dt: dt)
            guard s.movement else { continue }
            let up = filter.attitude.inverseRotate(SIMD3(0, 0, 1)), trueUp = s.truth.inverseRotate(SIMD3(0, 0, 1))
            let angle = Double(acosf(max(-1, min(1, (up * trueUp).sum())))) * 180 / .pi
            sum += angle * angle
            count += 1
        }
        return (sum / Double(max(count, 1))).squareRoot()
    }

    static let rates = [100, 285.7, 1000]

    /// Strokes whose stops exceed the old impact gate's threshold: dropping the stops leaned
    /// the estimate by 2–4°; keeping their integral leaves it where the noise does.
    @Test(arguments: rates)
    func strokesWithSharpStopsDoNotLeanTheEstimate(rate: Double) throws {
        let script = try MotionScript(parsing: """
            rest 4
            rotate x 25 deg over 1 s
            strokes 30 s frequency 1.5 hz stop 4 g over 30 ms along 0.6,-0.7,0.3
            strokes 20 s frequency 2.4 hz stop 3.5 g over 25 ms along -0.3,0.8,0.5
            """)
        let rms = try Self.inclinationRMS(script, rate: rate)
        #expect(rms < 0.3, "strokes at \(rate) Hz: inclination RMS \(rms)°")
    }

    /// A tap is a spike and its rebound: held out together, they leave no trace — the error
    /// is the one the same script has without the taps (sensor noise and bias), within 0.05° (a 20 ms cycle is six instantaneous samples at 285.7 Hz, whose sum is not exactly zero).
    @Test(arguments: rates)
    func tapsLeaveNoTrace(rate: Double) throws {
        let tapped = try MotionScript(parsing: """
            rest 6
            repeat 5 { shake 20 ms amplitude 8 g frequency 50 hz along 0.6,0,0.8 ; wobble 2 s amplitude 2 deg frequency 1 hz }
            """)
        let untouched = try MotionScript(parsing: """
            rest 6
            repeat 5 { rest 20 ms ; wobble 2 s amplitude 2 deg frequency 1 hz }
            """)
        let rms = try Self.inclinationRMS(tapped, rate: rate)
        let reference = try Self.inclinationRMS(untouched, rate: rate)
        #expect(abs(rms - reference) < 0.05, "taps at \(rate) Hz: inclination RMS \(rms)°, \(reference)° without them")
    }

    /// The same defaults at every rate: the spread of the RMS over 100, 285.7 and 1000 Hz.
    /// (hand-strokes and arm-swing spread by 30–40 % for VQF alike: a 30 ms stop is three
    /// instantaneous accelerometer samples at 100 Hz, and a 3.5 rad/s swing cones between
    /// gyroscope samples; docs/results.md.)
    @Test(arguments: ["robot-drive", "turn"])
    func newMotionsAreRateIndependent(preset: String) throws {
        let script = try #require(MotionScript.preset(named: preset))
        let values = try Self.rates.map { try Self.inclinationRMS(script, rate: $0) }
        let spread = values.max()! / values.min()! - 1
        #expect(spread < 0.1 || values.max()! < 0.1, "\(preset): \(values)° at \(Self.rates) Hz")
    }

    /// A sensor 1.5 m from the centre of a turn at 1 rad/s sees 1.5 m/s² toward the centre for
    /// a minute, which the inertial low-pass only partly averages (it turns once in 6 s);
    /// given the lever arm, the filter takes it out. On the 40 cm arm swing, whose arc
    /// accelerations average out in the low-pass, the compensation must not cost accuracy.
    /// (`plain` is without the body velocity estimate, which learns the same acceleration when
    /// no lever arm is given: `TurnCompensationTests`.)
    @Test(arguments: rates)
    func leverArmCompensationRemovesTheArc(rate: Double) throws {
        let turn = try #require(MotionScript.preset(named: "turn"))
        #expect(turn.leverArm == SIMD3(0, -1.5, 0))
        var unaware = PoiseFilter.Settings.default
        unaware.bodyVelocityTimeConstant = 0
        var settings = unaware
        settings.leverArm = SIMD3(0, -1.5, 0)
        let plain = try Self.inclinationRMS(turn, rate: rate, settings: unaware)
        let compensated = try Self.inclinationRMS(turn, rate: rate, settings: settings)
        #expect(compensated < plain * 0.25, "turn at \(rate) Hz: \(plain)° plain, \(compensated)° compensated")

        let swing = try #require(MotionScript.preset(named: "arm-swing"))
        settings.leverArm = SIMD3(0, 0, -0.4)
        let swingPlain = try Self.inclinationRMS(swing, rate: rate, settings: unaware)
        let swingCompensated = try Self.inclinationRMS(swing, rate: rate, settings: settings)
        #expect(swingCompensated < swingPlain + 0.05, "arm swing at \(rate) Hz: \(swingPlain)° plain, \(swingCompensated)° compensated")
    }
}
