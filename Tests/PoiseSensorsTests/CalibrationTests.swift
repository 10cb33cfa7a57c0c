import PoiseFlightCore
import PoiseMath
import PoiseMotion
@testable import PoiseSensors
import PoiseSimulation
import Foundation
import Testing

// Tolerances stated here are also in docs/wiring.md (Calibration):
//   gyro bias ≤ 0.0005 rad/s; accel offset ≤ 0.01 m/s², scale ≤ 0.002;
//   magnetometer hard iron ≤ 0.5 µT, soft iron (W·S / scale − I) ≤ 0.02 per entry,
//   corrected field norm within 1 % of the fitted radius.

/// Collects `count` samples from a driver already running.
func collect<M>(_ driver: inout MPU9250<SimulatedMPU9250<M>>, _ count: Int, clock: inout Int) -> [SensorSample] {
    run(&driver, ticks: count, from: &clock)
}

/// Rocking ±0.3 rad about z at 1 Hz: the gyro varies.
struct Rocking: SimulatedMotion {
    func state(at time: Double) -> (specificForce: SIMD3<Float>, angularRate: SIMD3<Float>, magneticField: SIMD3<Float>) {
        let rate = Float(0.3 * 2 * Double.pi * cos(2 * Double.pi * time))
        return (SIMD3(0, 0, Gravity.standard), SIMD3(0, 0, rate), typicalGeomagneticField)
    }
}

@Test func gyroBiasRecoveredWhileStill() throws {
    var driver = simulatedDriver(StaticPose(), errors: .typical)
    var clock = 0
    started(&driver, clock: &clock)
    var calibration = GyroscopeBiasCalibration()
    for sample in collect(&driver, 400, clock: &clock) {
        calibration.add(gyroscope: sample.gyroscope, accelerometer: sample.accelerometer)
    }
    // Bias plus its temperature term at 30 °C (5 °C above the 25 °C reference).
    let expected = SIMD3<Float>(0.02, -0.015, 0.01) + SIMD3<Float>(1e-4, -1e-4, 5e-5) * 5
    #expect(close(try calibration.bias(), expected, 0.0005))
}

@Test func gyroBiasRefusesWhileMoving() {
    for moving in [false, true] {
        var calibration = GyroscopeBiasCalibration()
        if moving {
            var driver = simulatedDriver(Rocking(), errors: .typical)
            var clock = 0
            started(&driver, clock: &clock)
            for s in collect(&driver, 400, clock: &clock) { calibration.add(gyroscope: s.gyroscope, accelerometer: s.accelerometer) }
            let error = #expect(throws: CalibrationError.self) { try calibration.bias() }
            #expect(error?.description.hasPrefix("the board moved: gyroscope standard deviation") == true)
        } else {
            // A steady turn has a constant rate; the accelerometer check catches it.
            var driver = simulatedDriver(ConstantRotation(axis: SIMD3(1, 0, 0), rate: 0.5), errors: .typical)
            var clock = 0
            started(&driver, clock: &clock)
            for s in collect(&driver, 400, clock: &clock) { calibration.add(gyroscope: s.gyroscope, accelerometer: s.accelerometer) }
            let error = #expect(throws: CalibrationError.self) { try calibration.bias() }
            #expect(error?.description.hasPrefix("the board moved: accelerometer") == true)
        }
    }
    #expect(throws: CalibrationError.tooFewSamples(got: 0, need: 400)) { try GyroscopeBiasCalibration().bias() }
}

/// Attitudes putting each body face up: +x, −x, +y, −y, +z, −z.
let faceUpAttitudes: [Quaternion] = [
    Quaternion(axis: SIMD3(0, 1, 0), angle: -.pi / 2), Quaternion(axis: SIMD3(0, 1, 0), angle: .pi / 2),
    Quaternion(axis: SIMD3(1, 0, 0), angle: .pi / 2), Quaternion(axis: SIMD3(1, 0, 0), angle: -.pi / 2),
    .identity, Quaternion(axis: SIMD3(1, 0, 0), angle: .pi),
]

@Test func accelerometerSixPositionRecoversOffsetAndScale() throws {
    var errors = SensorErrorModel.typical
    errors.crossAxis = .zero  // not part of the six-position model
    var driver = simulatedDriver(StaticPose(), errors: errors)
    var clock = 0
    started(&driver, clock: &clock)
    var poses: [SIMD3<Float>] = []
    for attitude in faceUpAttitudes.shuffled() {
        driver.bus.motion = StaticPose(attitude: attitude)
        _ = collect(&driver, 20, clock: &clock)  // let the low-pass settle
        var statistics = VectorStatistics()
        for s in collect(&driver, 200, clock: &clock) { statistics.add(s.accelerometer) }
        poses.append(statistics.average)
    }
    let (offset, scale) = try AccelerometerSixPositionCalibration().solve(poses: poses)
    #expect(close(offset, SIMD3(0.08, -0.12, 0.2), 0.01))
    #expect(close(scale, SIMD3(1.01, 0.995, 1.02), 0.002))
}

@Test func sixPositionNamesMissingAndRepeatedFaces() {
    let g = Gravity.standard
    let five: [SIMD3<Float>] = [SIMD3(g, 0, 0), SIMD3(-g, 0, 0), SIMD3(0, g, 0), SIMD3(0, -g, 0), SIMD3(0, 0, g)]
    let solver = AccelerometerSixPositionCalibration()
    #expect(throws: CalibrationError.missingPoses(["-z"])) { try solver.solve(poses: five) }
    #expect(throws: CalibrationError.duplicatePose("+z")) { try solver.solve(poses: five + [SIMD3(0, 0, g)]) }
    #expect(throws: CalibrationError.self) { try solver.solve(poses: five + [SIMD3(0, 5, -5)]) }
}

/// Random attitudes from a seeded generator.
func randomAttitudes(_ count: Int, seed: UInt64) -> [Quaternion] {
    var random = DeterministicRandom(seed: seed)
    return (0..<count).map { _ in
        Quaternion(components: SIMD4(Float(random.nextGaussian()), Float(random.nextGaussian()), Float(random.nextGaussian()), Float(random.nextGaussian()))).normalized
    }
}

@Test func ellipsoidFitRecoversHardAndSoftIron() throws {
    let hard = SIMD3<Float>(25, -40, 12)
    let soft = (SIMD3<Float>(1.10, 0.05, -0.03), SIMD3<Float>(0.05, 0.92, 0.04), SIMD3<Float>(-0.03, 0.04, 1.02))
    var random = DeterministicRandom(seed: 7)
    let samples = randomAttitudes(600, seed: 3).map { q -> SIMD3<Float> in
        let b = q.inverseRotate(typicalGeomagneticField)
        return soft.0 * b.x + soft.1 * b.y + soft.2 * b.z + hard + SIMD3(Float(random.nextGaussian()), Float(random.nextGaussian()), Float(random.nextGaussian())) * 0.3
    }
    let fit = try MagnetometerCalibration.fit(samples)
    #expect(close(fit.hardIron, hard, 0.5))
    let trueNorm = (typicalGeomagneticField * typicalGeomagneticField).sum().squareRoot()
    expectSoftIronInverts(fit, soft, trueNorm: trueNorm)
    #expect(fit.residual < 0.5)
    for sample in samples {
        let n = (fit.correct(sample) * fit.correct(sample)).sum().squareRoot()
        #expect(abs(n - fit.fieldStrength) < 0.01 * fit.fieldStrength + 1)
    }
}

/// W · S must be a multiple of the identity: the fit undid the distortion up to scale.
func expectSoftIronInverts(_ fit: MagnetometerCalibration, _ soft: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>), trueNorm: Float) {
    let w = [fit.softIron.0, fit.softIron.1, fit.softIron.2]
    let s = [soft.0, soft.1, soft.2]  // columns (symmetric, so also rows)
    let k = fit.fieldStrength / trueNorm
    for i in 0..<3 {
        for j in 0..<3 {
            let product = (w[i] * s[j]).sum() / k
            #expect(abs(product - (i == j ? 1 : 0)) < 0.02, "W·S[\(i)][\(j)] = \(product)")
        }
    }
}

/// Tumbling through all orientations (only the field matters for this test).
struct Tumble: SimulatedMotion {
    func state(at time: Double) -> (specificForce: SIMD3<Float>, angularRate: SIMD3<Float>, magneticField: SIMD3<Float>) {
        let q = Quaternion(axis: SIMD3(0, 0, 1), angle: Float(0.37 * time)) * Quaternion(axis: SIMD3(1, 0, 0), angle: Float(1.1 * time))
        return (q.inverseRotate(SIMD3(0, 0, Gravity.standard)), .zero, q.inverseRotate(typicalGeomagneticField))
    }
}

@Test func ellipsoidFitThroughTheSimulatedChip() throws {
    var driver = simulatedDriver(Tumble(), errors: .typical)
    var clock = 0
    started(&driver, clock: &clock)
    let fields = collect(&driver, 3000, clock: &clock).compactMap { $0.magnetometerIsNew ? $0.magnetometer : nil }
    #expect(fields.count > 2500)
    let fit = try MagnetometerCalibration.fit(fields)
    let typical = SensorErrorModel.typical
    #expect(close(fit.hardIron, SIMD3<Float>(typical.hardIron), 0.5))
    let trueNorm = (typicalGeomagneticField * typicalGeomagneticField).sum().squareRoot()
    let soft = typical.softIron
    expectSoftIronInverts(fit, (SIMD3<Float>(soft.x), SIMD3<Float>(soft.y), SIMD3<Float>(soft.z)), trueNorm: trueNorm)
}

@Test func ellipsoidFitRefusesPlanarAndTinyRecordings() {
    let planar = (0..<200).map { i -> SIMD3<Float> in
        Quaternion(axis: SIMD3(0, 0, 1), angle: Float(i) * 0.05).inverseRotate(typicalGeomagneticField)
    }
    let error = #expect(throws: CalibrationError.self) { try MagnetometerCalibration.fit(planar) }
    #expect(error?.description.hasPrefix("the magnetometer samples do not outline an ellipsoid") == true)
    #expect(throws: CalibrationError.tooFewSamples(got: 3, need: 50)) {
        try MagnetometerCalibration.fit([.zero, .one, .zero])
    }
}

@Test func calibrationIsAppliedByTheDriver() {
    var driver = simulatedDriver(StaticPose())
    driver.calibration = SensorCalibration(gyroscopeBias: SIMD3(0.1, 0, 0), accelerometerOffset: SIMD3(0, 0, 1),
                                           accelerometerScale: SIMD3(1, 1, 2))
    var clock = 0
    started(&driver, clock: &clock)
    let sample = collect(&driver, 1, clock: &clock)[0]
    #expect(close(sample.gyroscope, SIMD3(-0.1, 0, 0), 0.002))
    #expect(close(sample.accelerometer, SIMD3(0, 0, (Gravity.standard - 1) / 2), 0.005))
}

@Test func aSixPositionPoseMustBeResting() throws {
    var still = VectorStatistics()
    var shaken = VectorStatistics()
    for i in 0..<100 {
        still.add(SIMD3(0, 0, 9.81 + (i % 2 == 0 ? 0.01 : -0.01)))
        shaken.add(SIMD3(i % 2 == 0 ? 0.5 : -0.5, 0, 9.81))
    }
    try AccelerometerSixPositionCalibration.checkResting(still)
    let error = #expect(throws: CalibrationError.self) { try AccelerometerSixPositionCalibration.checkResting(shaken) }
    #expect(error?.description.hasPrefix("the board moved: accelerometer standard deviation 0.5") == true)
}
