import Testing
@testable import PoiseFusion
import PoiseMath

/// Synthetic, noise-free readings of a sensor with body-to-ENU attitude `q` in Berlin's field.
private struct SyntheticIMU {
    static let gravity = SIMD3<Float>(0, 0, 9.81)
    /// Earth's field in ENU, µT: 19 µT north, 45 µT down (dip ≈ 67°).
    static let field = SIMD3<Float>(0, 19, -45)
    var bias = SIMD3<Float>(0, 0, 0)

    func sample(_ q: Quaternion, rate: SIMD3<Float> = .zero, magnetometer: Bool = true,
                fieldOffset: SIMD3<Float> = .zero) -> InertialSample {
        InertialSample(accelerometer: q.inverseRotate(Self.gravity), gyroscope: rate + bias,
                       magnetometer: magnetometer ? q.inverseRotate(Self.field) + fieldOffset : nil)
    }
}

private let dt: Float = 0.0035

/// Runs `sample` for a further 0.2 s and returns the union of the flags seen (a steady
/// magnetometer reading is used only every 0.1 s, so per-sample flags alternate).
private func flagsOver(_ filter: inout PoiseFilter, _ sample: InertialSample) -> FilterFlags {
    var flags = FilterFlags()
    for _ in 0..<Int(0.2 / dt) {
        filter.update(sample, dt: dt)
        flags.formUnion(filter.status.flags)
    }
    return flags
}
private let degree: Float = .pi / 180

/// Angle of the rotation between two attitudes, degrees.
private func angle(_ a: Quaternion, _ b: Quaternion) -> Float {
    let e = (a * b.conjugate).normalized
    return 2 * _acos(min(1, abs(e.w))) / degree
}

/// Inclination part of the rotation between two attitudes, degrees.
private func inclination(_ a: Quaternion, _ b: Quaternion) -> Float {
    let e = (a * b.conjugate).normalized
    return 2 * _acos(min(1, squareRoot(e.w * e.w + e.z * e.z))) / degree
}

@Suite("PoiseFilter")
struct PoiseFilterTests {
    @Test func startsFromFirstSamplesIn9D() {
        let truth = Quaternion(axis: SIMD3(0, 0, 1), angle: 120 * degree)
            * Quaternion(axis: SIMD3(1, 0, 0), angle: 30 * degree)
        var filter = PoiseFilter()
        #expect(filter.status.flags.contains(.initialising))
        filter.update(SyntheticIMU().sample(truth), dt: dt)
        #expect(angle(filter.attitude, truth) < 0.1)
        for _ in 0..<1000 { filter.update(SyntheticIMU().sample(truth), dt: dt) }
        #expect(angle(filter.attitude, truth) < 0.1)
        // Level after τ_acc = 3 s; the start-up heading average lasts τ_mag = 9 s.
        let early = flagsOver(&filter, SyntheticIMU().sample(truth))
        #expect(early.contains(.headingInitialising) && !early.contains(.initialising))
        for _ in 0..<Int(6 / dt) { filter.update(SyntheticIMU().sample(truth), dt: dt) }
        #expect(angle(filter.attitude, truth) < 0.1)
        let late = flagsOver(&filter, SyntheticIMU().sample(truth))
        #expect(!late.contains(.initialising) && !late.contains(.headingInitialising))
        #expect(flagsOver(&filter, SyntheticIMU().sample(truth)).contains(.magnetometerUsed))
    }

    @Test func levelsIn6D() {
        let truth = Quaternion(axis: SIMD3(1, 1, 0) / squareRoot(2), angle: 50 * degree)
        var filter = PoiseFilter()
        for _ in 0..<500 {
            filter.update(SyntheticIMU().sample(truth, magnetometer: false), dt: dt)
        }
        #expect(inclination(filter.attitude, truth) < 0.1)
        #expect(!filter.status.flags.contains(.magnetometerUsed))
    }

    @Test func estimatesBiasAtRest() {
        let imu = SyntheticIMU(bias: SIMD3(1, -0.5, 0.8) * degree)
        let truth = Quaternion(axis: SIMD3(0, 1, 0), angle: 20 * degree)
        var filter = PoiseFilter()
        for _ in 0..<Int(20 / dt) { filter.update(imu.sample(truth), dt: dt) }
        #expect(filter.status.flags.contains(.atRest))
        let error = (filter.status.gyroscopeBias - imu.bias) / degree
        #expect(error.largestMagnitude < 0.02, "bias error \(error) °/s")
        #expect(filter.status.gyroscopeBiasUncertainty < 0.05 * degree)
        #expect(angle(filter.attitude, truth) < 0.5)
    }

    @Test func estimatesBiasInMotion() {
        var settings = PoiseFilter.Settings.default
        settings.restBiasEstimation = false
        var filter = PoiseFilter(settings: settings)
        let imu = SyntheticIMU(bias: SIMD3(0.5, -0.3, 0.4) * degree)
        var truth = Quaternion.identity
        var t: Float = 0
        for _ in 0..<Int(150 / dt) {
            let rate = SIMD3<Float>(0.5 * _sin(0.3 * t), 0.4 * _cos(0.23 * t), 0.3 * _sin(0.17 * t + 1))
            truth = (truth * Quaternion(rotationVector: rate * dt)).normalized
            t += dt
            filter.update(imu.sample(truth, rate: rate, magnetometer: false), dt: dt)
        }
        #expect(!filter.status.flags.contains(.atRest))
        let error = (filter.status.gyroscopeBias - imu.bias) / degree
        #expect(error.largestMagnitude < 0.02, "bias error \(error) °/s")
        #expect(inclination(filter.attitude, truth) < 0.5)
    }

    @Test func followsRotationWithMagnetometer() {
        var filter = PoiseFilter()
        var truth = Quaternion.identity
        let imu = SyntheticIMU()
        for i in 0..<Int(30 / dt) {
            let t = Float(i) * dt
            let rate = SIMD3<Float>(0.8 * _sin(1.1 * t), 0.6 * _cos(0.7 * t), 1.2 * _sin(0.5 * t))
            truth = (truth * Quaternion(rotationVector: rate * dt)).normalized
            filter.update(imu.sample(truth, rate: rate), dt: dt)
        }
        #expect(angle(filter.attitude, truth) < 0.5)
    }

    @Test func rejectsMagneticDisturbance() {
        let truth = Quaternion(axis: SIMD3(0, 0, 1), angle: 40 * degree)
        var filter = PoiseFilter()
        let imu = SyntheticIMU()
        for _ in 0..<Int(10 / dt) { filter.update(imu.sample(truth), dt: dt) }
        #expect(!filter.status.flags.contains(.magneticDisturbance))
        // A magnet nearby: strong extra field, mostly horizontal.
        for _ in 0..<Int(20 / dt) {
            filter.update(imu.sample(truth, fieldOffset: SIMD3(30, 10, 0)), dt: dt)
        }
        let disturbed = flagsOver(&filter, imu.sample(truth, fieldOffset: SIMD3(30, 10, 0)))
        #expect(disturbed.contains(.magneticDisturbance))
        #expect(!disturbed.contains(.magnetometerUsed))
        #expect(angle(filter.attitude, truth) < 0.5)
        // The magnet is gone again: the field matches the reference.
        for _ in 0..<Int(2 / dt) { filter.update(imu.sample(truth), dt: dt) }
        let clean = flagsOver(&filter, imu.sample(truth))
        #expect(!clean.contains(.magneticDisturbance))
        #expect(clean.contains(.magnetometerUsed))
    }

    @Test func heldMagnetometerReadingsAreNotRecounted() {
        let truth = Quaternion(axis: SIMD3(0, 0, 1), angle: 30 * degree)
        var filter = PoiseFilter()
        let sample = SyntheticIMU().sample(truth)
        filter.update(sample, dt: dt)
        #expect(filter.status.flags.contains(.magnetometerUsed))
        filter.update(sample, dt: dt)
        #expect(!filter.status.flags.contains(.magnetometerUsed))
        var changed = sample
        changed.magnetometer! += SIMD3(0.01, 0, 0)
        filter.update(changed, dt: dt)
        #expect(filter.status.flags.contains(.magnetometerUsed))
    }

    /// Impact rejection is off by default (the low-pass averages a tap away); switched on, an
    /// impact is held out and flagged.
    @Test func rejectsImpactsWhenAsked() {
        let truth = Quaternion(axis: SIMD3(1, 0, 0), angle: 10 * degree)
        var settings = PoiseFilter.Settings.default
        settings.accelerationRejectionThreshold = 30
        var filter = PoiseFilter(settings: settings)
        let imu = SyntheticIMU()
        for _ in 0..<Int(5 / dt) { filter.update(imu.sample(truth), dt: dt) }
        var impact = imu.sample(truth)
        impact.accelerometer += SIMD3(80, 0, 0)
        var unguarded = PoiseFilter()
        for _ in 0..<Int(5 / dt) { unguarded.update(imu.sample(truth), dt: dt) }
        filter.update(impact, dt: dt)
        unguarded.update(impact, dt: dt)
        #expect(filter.status.flags.contains(.accelerationRejected))
        #expect(!unguarded.status.flags.contains(.accelerationRejected))
        #expect(angle(filter.attitude, truth) < 0.1)
        #expect(angle(unguarded.attitude, truth) < 0.1)
    }

    @Test func countsAndSurvivesRejectedInput() {
        var filter = PoiseFilter()
        let imu = SyntheticIMU()
        let truth = Quaternion.identity
        for _ in 0..<100 { filter.update(imu.sample(truth), dt: dt) }
        filter.update(InertialSample(accelerometer: SIMD3(.nan, 0, 9.81), gyroscope: .zero), dt: dt)
        #expect(filter.status.flags.contains(.inputRejected))
        filter.update(imu.sample(truth), dt: -1)
        filter.update(imu.sample(truth), dt: .infinity)
        filter.update(imu.sample(truth, rate: SIMD3(1e6, 0, 0)), dt: dt)
        #expect(filter.status.rejectedSamples == 4)
        #expect(angle(filter.attitude, truth) < 0.1)
    }

    @Test func polynomialArcTangentMatchesLibm() {
        var worst: Float = 0
        for i in 0..<3600 {
            let a = Float(i) * 0.1 * degree - .pi
            for r: Float in [0.01, 1, 50] {
                let y = r * _sin(a), x = r * _cos(a)
                worst = max(worst, abs(PoiseFilter.arcTangent(y, x) - _atan2(y, x)))
            }
        }
        #expect(worst < 3e-5)
        #expect(PoiseFilter.arcTangent(0, 0) == 0)
    }

    @Test func seriesRotationsMatchExactOnes() {
        for angle: Float in [0, 1e-4, 0.01, 0.1, 0.2, 0.2499, 0.26, 1, 3] {
            let axis = SIMD3<Float>(2, -1, 3) / squareRoot(14)
            let series = PoiseFilter.rotation(axis * angle).components
            let exact = Quaternion(axis: axis, angle: angle).components
            #expect(((series - exact) * (series - exact)).sum() < 1e-13, "angle \(angle)")
            let vertical = PoiseFilter.rotationAboutVertical(angle).components
            let exactVertical = Quaternion(axis: SIMD3(0, 0, 1), angle: angle).components
            #expect(((vertical - exactVertical) * (vertical - exactVertical)).sum() < 1e-13)
        }
    }

    @Test func fastReciprocalSquareRootIsAccurate() {
        for x: Float in [1e-6, 0.01, 0.5, 1, 2, 96.2, 1e4, 2.5e5] {
            let exact = 1 / x.squareRoot()
            #expect(abs(PoiseFilter.fastReciprocalSquareRoot(x) - exact) < 1e-5 * exact)
        }
    }
}

extension SIMD3 where Scalar == Float {
    /// Largest absolute component (for test tolerances).
    var largestMagnitude: Float { max(Swift.abs(x), Swift.abs(y), Swift.abs(z)) }
}
