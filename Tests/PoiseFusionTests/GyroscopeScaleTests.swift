import Foundation
import PoiseFusion
import PoiseMotion
import Testing
import PoiseMath

/// The 6D accuracy gap: a gyroscope's scale-factor errors (MEMS parts are specified to a few
/// per cent) turn every full turn into attitude error — 0.35 % is 1.3° per turn — and without
/// a magnetometer nothing takes the heading part back. The filter learns each axis's scale
/// error from the drift of the filtered gravity, as it learns the bias: rotating about an axis
/// while it is horizontal tilts the estimate by the error.
@Suite struct GyroscopeScaleTests {
    /// Two minutes of turns about every body axis, in several attitudes, at `rate` Hz.
    static let motion = """
        rest 5
        repeat 6 {
          rotate x 360 deg over 3
          rotate y 360 deg over 3
          rotate z 360 deg over 3
          rotate x 90 deg over 1
          rotate z 360 deg over 3
          rotate y -360 deg over 3
          rotate x -90 deg over 1
          wobble 2 amplitude 20 deg frequency 1 hz about y
        }
        rest 5
        """

    static let trueScale = SIMD3<Double>(1.008, 0.993, 1.012)

    /// RMS heading change (degrees) over the movement without a magnetometer, and the
    /// learned scale error at the end.
    static func run(settings: PoiseFilter.Settings = .default, rate: Double = 200) throws
        -> (heading: Double, scale: SIMD3<Float>) {
        let script = try MotionScript(parsing: motion, name: "scale-turns")
        var errors = SensorErrorModel.default
        errors.gyroscopeScale = trueScale
        var imu = try SimulatedIMU(script: script, sampleRate: rate, errorModel: errors)
        var filter = PoiseFilter(settings: settings)
        var sum = 0.0, count = 0
        var start: Double?
        let dt = Float(1 / rate)
        while let s = imu.next() {
            filter.update(InertialSample(accelerometer: s.accelerometer, gyroscope: s.gyroscope,
                                         magnetometer: nil), dt: dt)
            let t = Double(s.index) / rate
            guard t > 4.5 else { continue }
            // In 6D the heading is arbitrary: measure its change from the end of the rest.
            let e = filter.attitude * s.truth.conjugate
            let heading = Double(2 * atan2f(e.z, e.w)) * 180 / .pi
            let offset = start ?? heading
            start = offset
            var change = heading - offset
            change -= 360 * (change / 360).rounded()
            sum += change * change
            count += 1
        }
        return ((sum / Double(max(count, 1))).squareRoot(), filter.status.gyroscopeScale)
    }

    @Test func theScaleErrorIsLearnedAndTheHeadingHolds() throws {
        let learned = try Self.run()
        var off = PoiseFilter.Settings.default
        off.gyroscopeScaleUncertainty = 0
        let unlearned = try Self.run(settings: off)
        print("gyroscope scale: learned \(learned.scale * 100) % (true \((Self.trueScale - 1) * 100) %); "
              + "6D heading \(unlearned.heading)° RMS without the estimate, \(learned.heading)° with it")
        #expect(unlearned.scale == .zero)
        let truth = SIMD3<Float>(Self.trueScale - 1)
        for axis in 0..<3 {
            #expect(abs(learned.scale[axis] - truth[axis]) < 0.003,
                    "axis \(axis): learned \(learned.scale[axis]), true \(truth[axis])")
        }
        #expect(learned.heading < unlearned.heading / 2)
    }
}
