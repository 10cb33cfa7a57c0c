import Testing
import PropertyBased
import PoiseFusion
import PoiseMath

/// Hostile input between valid samples must never produce a non-finite or non-unit attitude.
@Suite("PoiseFilter robustness")
struct PoiseFilterPropertyTests {
    static let garbage: [Float] = [
        .nan, .infinity, -.infinity, 0, -0.0, 1e-30, 1e30, -1e30, .greatestFiniteMagnitude,
        .leastNonzeroMagnitude, 1, -1, 9.81, 1000, 200, 50,
    ]
    static let steps: [Float] = [0.0035, 0, -0.01, 1e-9, 0.5, 0.51, 10, .nan, .infinity, 1e-30]

    @Test func attitudeStaysFiniteAndUnit() async {
        let vector = Gen.int(in: 0...(Self.garbage.count - 1)).map { Self.garbage[$0] }.simd3
        let validVector = Gen.float(in: -20...20).simd3
        let step = Gen.int(in: 0...(Self.steps.count - 1)).map { Self.steps[$0] }
        await propertyCheck(count: 200, input: vector, validVector, vector, step, Gen.bool) {
            bad, good, badMagnetometer, badStep, useMagnetometer in
            var filter = PoiseFilter()
            let valid = InertialSample(accelerometer: SIMD3(0.3, -0.2, 9.8),
                                       gyroscope: good * 0.05,
                                       magnetometer: useMagnetometer ? SIMD3(5, 18, -44) : nil)
            let hostile = [
                InertialSample(accelerometer: bad, gyroscope: good, magnetometer: badMagnetometer),
                InertialSample(accelerometer: good, gyroscope: bad, magnetometer: nil),
                InertialSample(accelerometer: good * 1e3, gyroscope: good * 1e3, magnetometer: good * 1e3),
                InertialSample(accelerometer: .zero, gyroscope: .zero, magnetometer: .zero),
                InertialSample(accelerometer: good, gyroscope: good, magnetometer: badMagnetometer),
            ]
            for round in 0..<40 {
                filter.update(valid, dt: 0.0035)
                filter.update(hostile[round % hostile.count], dt: round % 3 == 0 ? badStep : 0.0035)
                filter.update(valid, dt: badStep)
                let q = filter.attitude
                #expect((q.components * 0).sum() == 0, "non-finite attitude \(q)")
                #expect(abs(q.length - 1) < 1e-4, "attitude not unit: \(q.length)")
                let status = filter.status
                #expect((status.gyroscopeBias * 0).sum() == 0)
                #expect(status.gyroscopeBias.largestMagnitude <= filter.settings.biasLimit * 1.0001)
            }
        }
    }
}
