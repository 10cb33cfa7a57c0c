import Foundation
import PoiseFusion
import PoiseMath
import PoiseMotion
import Testing

/// Sustained linear acceleration turns the filtered gravity just as a gyroscope bias would:
/// a robot that speeds up at 1 m/s² for a few seconds turns it at up to 1.9 °/s. The motion
/// bias estimate must not take that for bias (docs/results.md, "Inclination under skewed and
/// sustained acceleration").
@Suite struct SustainedAccelerationBiasTests {
    /// Largest error of the horizontal bias estimate while `robot-drive` drives (no rotation at
    /// all, so nothing but the acceleration can move it after the rest at the start), °/s, and
    /// the inclination RMS over the movement, degrees.
    static func drive(rate: Double, settings: PoiseFilter.Settings = .default) throws -> (bias: Double, rms: Double) {
        let script = try #require(MotionScript.preset(named: "robot-drive"))
        let model = SensorErrorModel.default
        var imu = try SimulatedIMU(script: script, sampleRate: rate, errorModel: model)
        var filter = PoiseFilter(settings: settings)
        let dt = Float(1 / rate)
        let truth = SIMD2<Float>(Float(model.gyroscopeBias.x), Float(model.gyroscopeBias.y))
        var worst = 0.0, sum = 0.0, count = 0
        while let s = imu.next() {
            filter.update(InertialSample(accelerometer: s.accelerometer, gyroscope: s.gyroscope), dt: dt)
            guard s.movement else { continue }
            let b = filter.gyroscopeBias
            let error = SIMD2(b.x, b.y) - truth
            worst = max(worst, Double((error * error).sum().squareRoot()) * 180 / .pi)
            let up = filter.attitude.inverseRotate(SIMD3(0, 0, 1)), trueUp = s.truth.inverseRotate(SIMD3(0, 0, 1))
            let angle = Double(acosf(max(-1, min(1, (up * trueUp).sum())))) * 180 / .pi
            sum += angle * angle
            count += 1
        }
        return (worst, (sum / Double(max(count, 1))).squareRoot())
    }

    /// Before the motion measurement was weighted by the sustained acceleration (2026-11-26)
    /// the estimate moved by up to BEFORE °/s while driving and the inclination RMS was 1.72°
    /// (VQF online, same samples: 1.65°).
    @Test(arguments: [100.0, 1000.0])
    func drivingDoesNotTeachTheBiasEstimate(rate: Double) throws {
        let result = try Self.drive(rate: rate)
        print("robot-drive at \(rate) Hz: worst horizontal bias error \(result.bias) °/s, inclination RMS \(result.rms)°")
        #expect(result.bias < 0.05, "robot-drive at \(rate) Hz: bias error up to \(result.bias) °/s")
        // VQF online on the same samples: 1.65° at 100 Hz, 1.656° at 1 kHz (Tests/peer/vqf_peer.py).
        let vqf = rate < 500 ? 1.65 : 1.656
        #expect(result.rms <= vqf, "robot-drive at \(rate) Hz: inclination RMS \(result.rms)° (VQF online \(vqf)°)")
    }
}
