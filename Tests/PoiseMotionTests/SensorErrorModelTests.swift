import PoiseMath
@testable import PoiseMotion
import Testing

@Suite struct SensorErrorModelTests {
    static let script = MotionScript.preset(named: "demo")!

    @Test func idealSensorMeasuresTheTruthExactly() throws {
        var truth = try MotionGenerator(script: Self.script, sampleRate: 100)
        var imu = try SimulatedIMU(script: Self.script, sampleRate: 100, errorModel: .ideal)
        var previous: Quaternion? = nil
        while let t = truth.next() {
            guard let m = imu.next() else {
                Issue.record("measured sequence ended early")
                return
            }
            #expect(m.accelerometer == t.specificForce)
            // The gyroscope reports the mean rate over the interval since the last sample: one
            // step of it turns the previous true attitude into this one.
            if let previous {
                let stepped = previous * Quaternion(rotationVector: m.gyroscope / 100)
                #expect(stepped.angle(to: t.attitude) < 2e-5, "\(t.time) s")
            } else {
                #expect(m.gyroscope == t.angularRate)
            }
            previous = t.attitude
            #expect(m.magnetometer == t.magneticField)
            #expect(m.truth == t.attitude)
            #expect(m.movement == t.movement)
            #expect(m.time == t.time)
        }
        #expect(imu.next() == nil)
    }

    @Test func sameSeedGivesBitIdenticalSamples() throws {
        var model = SensorErrorModel.uncalibrated
        model.seed = 1234
        let a = Array(try SimulatedIMU(script: Self.script, sampleRate: 200, errorModel: model))
        let b = Array(try SimulatedIMU(script: Self.script, sampleRate: 200, errorModel: model))
        #expect(a == b)
        model.seed = 1235
        let c = Array(try SimulatedIMU(script: Self.script, sampleRate: 200, errorModel: model))
        #expect(a != c)
    }

    /// Pins the exact output so a change in the generator, the noise or the arithmetic on
    /// another machine shows up. Update the constant only for an intended change.
    @Test func outputIsPinned() throws {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ v: SIMD3<Float>) {
            for x in [v.x, v.y, v.z] {
                hash = (hash ^ UInt64(x.bitPattern)) &* 0x100_0000_01b3
            }
        }
        for s in try SimulatedIMU(script: Self.script, sampleRate: 285.714286, errorModel: .default) {
            mix(s.accelerometer)
            mix(s.gyroscope)
            mix(s.magnetometer)
            mix(s.truth.imaginary)
        }
        #expect(hash == Self.pinnedHash, "hash \(String(hash, radix: 16))")
    }
    // Moved once when PoiseMath's own elementary functions replaced libm's (the gyroscope's rate
    // comes from `rotationVector`, whose atan2 now gives the same bits on every CPU).
    static let pinnedHash: UInt64 = 0x04af_81f8_6939_a256

    @Test func noiseHasTheConfiguredStandardDeviation() throws {
        let model = SensorErrorModel(
            gyroscopeNoiseDensity: 0.001, accelerometerNoiseDensity: 0.01, magnetometerNoise: 0.5, seed: 5)
        let rate = 400.0
        let rest = try MotionScript(parsing: "rest 100")
        var truth = try MotionGenerator(script: rest, sampleRate: rate)
        var imu = try SimulatedIMU(script: rest, sampleRate: rate, errorModel: model)
        var sums = SIMD3<Double>.zero, n = 0.0
        while let t = truth.next(), let m = imu.next() {
            let g = SIMD3<Double>(m.gyroscope - t.angularRate)
            let a = SIMD3<Double>(m.accelerometer - t.specificForce)
            let b = SIMD3<Double>(m.magnetometer - t.magneticField)
            sums += SIMD3((g * g).sum(), (a * a).sum(), (b * b).sum()) / 3
            n += 1
        }
        let sigma = SIMD3((sums.x / n).squareRoot(), (sums.y / n).squareRoot(), (sums.z / n).squareRoot())
        #expect(abs(sigma.x / (0.001 * rate.squareRoot()) - 1) < 0.02)
        #expect(abs(sigma.y / (0.01 * rate.squareRoot()) - 1) < 0.02)
        #expect(abs(sigma.z / 0.5 - 1) < 0.02)
    }

    @Test func biasesScalesAndHardIronAreApplied() throws {
        let model = SensorErrorModel(
            gyroscopeNoiseDensity: 0, gyroscopeBias: SIMD3(0.01, -0.02, 0.03), gyroscopeScale: SIMD3(1, 1, 2),
            accelerometerNoiseDensity: 0, accelerometerBias: SIMD3(0.1, 0.2, 0.3), accelerometerScale: SIMD3(1, 1, 1.01),
            magnetometerNoise: 0, hardIron: SIMD3(5, 6, 7))
        let script = try MotionScript(parsing: "spin z 1 rad/s for 0.5 s")
        for m in try SimulatedIMU(script: script, sampleRate: 10, errorModel: model) {
            #expect(maxDifference(m.gyroscope, SIMD3(0.01, -0.02, 2.03)) < 1e-6)
            #expect(m.gyroscopeBias == SIMD3(0.01, -0.02, 0.03))
            let f = m.truth.inverseRotate(SIMD3(0, 0, 9.80665))
            #expect(maxDifference(m.accelerometer, f * SIMD3(1, 1, 1.01) + SIMD3(0.1, 0.2, 0.3)) < 1e-5)
            let b = m.truth.inverseRotate(SIMD3(0, 20, -40))
            #expect(maxDifference(m.magnetometer, b + SIMD3(5, 6, 7)) < 1e-4)
        }
    }

    @Test func magneticDisturbanceAppearsOnlyInItsWindow() throws {
        let dipole = MagneticDisturbance.dipole(
            start: 1, end: 2, moment: SIMD3(0.1, 0, 0), position: SIMD3(0.05, 0, 0), ramp: 0.1)
        #expect(abs(dipole.field.x - 160) < 1e-9)  // on-axis: 2·0.1·m/r³ µT
        var model = SensorErrorModel.ideal
        model.magneticDisturbances = [dipole]
        let script = try MotionScript(parsing: "rest 3")
        for m in try SimulatedIMU(script: script, sampleRate: 100, errorModel: model) {
            let extra = m.magnetometer.x
            if m.time < 1 || m.time > 2 {
                #expect(extra == 0)
            } else if m.time >= 1.1 && m.time <= 1.9 {
                #expect(abs(extra - 160) < 1e-3)
            } else {
                #expect(extra >= 0 && extra <= 160.001)
            }
        }
    }

    @Test func invalidModelsAreRejected() throws {
        var model = SensorErrorModel.default
        model.gyroscopeNoiseDensity = -1
        #expect(throws: MotionSettingsError.self) {
            try SimulatedIMU(script: Self.script, sampleRate: 100, errorModel: model)
        }
        model = .default
        model.magneticDisturbances = [MagneticDisturbance(start: 2, end: 1, field: .zero)]
        #expect(throws: MotionSettingsError.self) {
            try SimulatedIMU(script: Self.script, sampleRate: 100, errorModel: model)
        }
        #expect(SensorErrorModel.preset(named: "uncalibrated") == .uncalibrated)
    }

    /// The fields the register-level chip also applies: cross-axis coupling, a bias that follows
    /// the die temperature and a soft iron with coupling, here at rest with gravity along z.
    @Test func crossAxisTemperatureAndSoftIronAreApplied() throws {
        var model = SensorErrorModel.ideal
        model.crossAxis = SIMD3(0.01, 0.02, 0.03)
        model.temperature = 25
        model.temperatureRate = 2  // °C/s
        model.gyroscopeBiasPerDegree = SIMD3(0.001, 0, 0)
        model.softIron = SensorErrorModel.SoftIron(SIMD3(1, 0.1, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))
        let script = try MotionScript(parsing: "rest 1")
        for m in try SimulatedIMU(script: script, sampleRate: 10, errorModel: model) {
            let g = Double(m.accelerometer.z)
            #expect(abs(Double(m.accelerometer.x) - 0.02 * g) < 1e-5 && abs(Double(m.accelerometer.y) - 0.03 * g) < 1e-5)
            #expect(abs(Double(m.gyroscope.x) - 0.002 * m.time) < 1e-6)
            let b = m.truth.inverseRotate(SIMD3(0, 20, -40))
            #expect(maxDifference(m.magnetometer, b + SIMD3(0, 0.1 * b.x, 0)) < 1e-4)
        }
        #expect(model.fieldsTheChipCannotApply.isEmpty)
        #expect(SensorErrorModel.typical.fieldsTheChipCannotApply.isEmpty)
        #expect(SensorErrorModel.uncalibrated.fieldsTheChipCannotApply == ["gyroscopeBiasRandomWalk"])
        model.magnetometerLatency = 0.01
        model.magneticDisturbances = [MagneticDisturbance(start: 0, end: 1, field: .one)]
        #expect(model.fieldsTheChipCannotApply == ["magneticDisturbances", "magnetometerLatency"])
    }
}
