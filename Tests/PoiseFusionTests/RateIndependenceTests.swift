import Foundation
import PoiseFusion
import PoiseMotion
import Testing
import PoiseMath

/// The same motion at the MPU-9250's usual rates gives the same accuracy with the
/// same defaults — time constants are in seconds, not samples.
@Suite struct RateIndependenceTests {
    /// RMS total attitude error over the motion's movement rows, degrees, 9D.
    static func error(rate: Double) throws -> Double {
        let motion = try #require(MotionScript.preset(named: "demo"))
        var imu = try SimulatedIMU(script: motion, sampleRate: rate, errorModel: .default)
        let movement = imu.movementRanges
        var filter = PoiseFilter()
        var sum = 0.0, count = 0
        let dt = Float(1 / rate)
        while let s = imu.next() {
            filter.update(InertialSample(accelerometer: s.accelerometer, gyroscope: s.gyroscope, magnetometer: s.magnetometer), dt: dt)
            guard movement.contains(where: { $0.contains(s.index) }) else { continue }
            let d = (filter.attitude.inverse * s.truth).normalized
            let angle = 2 * Double(atan2f((d.x * d.x + d.y * d.y + d.z * d.z).squareRoot(), abs(d.w))) * 180 / .pi
            sum += angle * angle
            count += 1
        }
        return (sum / Double(max(count, 1))).squareRoot()
    }

    @Test func accuracyAtHundredHz285HzAndOneKilohertzAgreesWithinTenPercent() throws {
        let errors = try [100, 285.7, 1000].map(Self.error)
        let spread = errors.max()! / errors.min()! - 1
        print("rate independence: RMS \(errors) degrees at 100, 285.7, 1000 Hz; spread \(spread * 100) %")
        #expect(spread <= 0.10, "RMS \(errors) degrees: spread \(spread * 100) %")
    }
}
