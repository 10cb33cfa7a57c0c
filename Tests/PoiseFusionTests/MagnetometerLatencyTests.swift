import Foundation
import PoiseFusion
import PoiseMotion
import Testing
import PoiseMath

/// BROAD's fast-rotation trials: a magnetometer delivers what it measured some
/// milliseconds before the gyroscope's reading (on every BROAD trial about 13 ms). Seen
/// through the current attitude, such a reading is the field turned back by the rotation
/// since: 6.5° of heading at 500 °/s, and enough dip to look like a disturbance. The filter
/// learns the latency from how the field's fast changes follow ω × h, and turns each reading
/// forward by it.
@Suite struct MagnetometerLatencyTests {
    /// Sustained fast spins about the vertical and tilted axes, each way, with rests between
    /// (as in BROAD's fast-rotation trials).
    static let motion = """
        rest 5
        repeat 3 {
          spin z 400 deg/s for 6 s
          rest 2
          spin 1,0,1 360 deg/s for 4 s
          spin z -400 deg/s for 6 s
          rest 2
          spin 0,1,1 -360 deg/s for 4 s
        }
        rest 3
        """

    /// RMS 9D heading error (degrees) after the first 10 s, and the latency learned at the end.
    static func run(latency: Double, settings: PoiseFilter.Settings = .default,
                    rate: Double = 285.714) throws -> (heading: Double, latency: Float) {
        let script = try MotionScript(parsing: motion, name: "fast-turns")
        var errors = SensorErrorModel.default
        errors.magnetometerLatency = latency
        var imu = try SimulatedIMU(script: script, sampleRate: rate, errorModel: errors)
        var filter = PoiseFilter(settings: settings)
        var sum = 0.0, count = 0
        let dt = Float(1 / rate)
        while let s = imu.next() {
            filter.update(InertialSample(accelerometer: s.accelerometer, gyroscope: s.gyroscope,
                                         magnetometer: s.magnetometer), dt: dt)
            guard Double(s.index) / rate > 10 else { continue }
            let e = filter.attitude * s.truth.conjugate
            let heading = Double(2 * atan2f(e.z, e.w)) * 180 / .pi
            let wrapped = heading - 360 * (heading / 360).rounded()
            sum += wrapped * wrapped
            count += 1
        }
        return ((sum / Double(max(count, 1))).squareRoot(), filter.status.magnetometerLatency)
    }

    static var withoutEstimate: PoiseFilter.Settings {
        var settings = PoiseFilter.Settings.default
        settings.magnetometerLatencyEstimation = false
        return settings
    }

    @Test func aLateMagnetometerIsLearnedAndCorrected() throws {
        let learned = try Self.run(latency: 0.013)
        let ignored = try Self.run(latency: 0.013, settings: Self.withoutEstimate)
        print("magnetometer 13 ms late: learned \(learned.latency * 1000) ms; 9D heading "
              + "\(ignored.heading)° RMS without the estimate, \(learned.heading)° with it")
        #expect(ignored.latency == 0)
        #expect(abs(learned.latency - 0.013) < 0.002, "learned \(learned.latency) s")
        #expect(learned.heading < ignored.heading / 2)
    }

    @Test func aTimelyMagnetometerIsLeftAlone() throws {
        let learned = try Self.run(latency: 0)
        let ignored = try Self.run(latency: 0, settings: Self.withoutEstimate)
        print("magnetometer on time: learned \(learned.latency * 1000) ms; 9D heading "
              + "\(ignored.heading)° RMS without the estimate, \(learned.heading)° with it")
        // The fit's own error (spin transitions, soft iron) is a few milliseconds.
        #expect(abs(learned.latency) < 0.003, "learned \(learned.latency) s")
        #expect(learned.heading < ignored.heading + 0.25)
    }

    /// A fixed latency from the configuration is used as given.
    @Test func aConfiguredLatencyIsKept() throws {
        var settings = Self.withoutEstimate
        settings.magnetometerLatency = 0.013
        let fixed = try Self.run(latency: 0.013, settings: settings)
        let ignored = try Self.run(latency: 0.013, settings: Self.withoutEstimate)
        #expect(fixed.latency == 0.013)
        #expect(fixed.heading < ignored.heading / 2)
    }
}
