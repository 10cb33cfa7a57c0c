import Foundation
import PoiseFusion
import PoiseMotion
import Testing
import PoiseMath

/// The second former failure class in motion: a magnet carried with the sensor through a minute of
/// turning (BROAD's trial 35 has one 4 cm away; here it is put on the board as the movement
/// starts, so the rest before it gives a clean reference). A strong one must be rejected and
/// the heading left to the gyroscope; a moderate one passes the norm and dip tests and pulls
/// the heading by its component along it. Both are learned by the hard-iron estimate.
@Suite struct CarriedDisturbanceTests {
    /// RMS heading error (degrees) over the movement of a minute of turning with a gyroscope
    /// z scale error of 0.4 %, with a magnet of 0.01 A·m² `centimetres` away along body x
    /// from the start of the movement on.
    static func headingError(centimetres: Double, rate: Double = 200,
                             settings: PoiseFilter.Settings = .default) throws -> Double {
        let motion = try MotionScript(parsing: """
            rest 8
            repeat 6 {
              rotate z 150 deg over 2
              wobble 3 amplitude 25 deg frequency 0.8 hz about x
              rotate y 30 deg over 1
              rotate y -30 deg over 1
              rotate z -60 deg over 2
              wobble 1 amplitude 15 deg frequency 1 hz about y
            }
            rest 8
            """, name: "carried-magnet")
        var errors = SensorErrorModel.default
        errors.gyroscopeScale.z = 1.004
        errors.magneticDisturbances = [.dipole(start: 8, end: 1e9, moment: SIMD3(0.01, 0, 0),
                                               position: SIMD3(centimetres / 100, 0, 0), frame: .body, ramp: 0.5)]
        var imu = try SimulatedIMU(script: motion, sampleRate: rate, errorModel: errors)
        var filter = PoiseFilter(settings: settings)
        var sum = 0.0, count = 0
        let dt = Float(1 / rate)
        while let s = imu.next() {
            filter.update(InertialSample(accelerometer: s.accelerometer, gyroscope: s.gyroscope,
                                         magnetometer: s.magnetometer), dt: dt)
            let t = Double(s.index) / rate
            guard t > 8, t < 68 else { continue }
            // Heading error: the rotation about world z of estimate ⊗ truth⁻¹.
            let e = filter.attitude * s.truth.conjugate
            let heading = Double(2 * atanf(e.z / e.w)) * 180 / .pi
            sum += heading * heading
            count += 1
        }
        let error = (sum / Double(max(count, 1))).squareRoot()
        print("carried magnet \(centimetres) cm: \(error)° RMS heading")
        return error
    }

    /// Without the magnet: the gyroscope's scale error alone, corrected by a clean field.
    @Test func withoutTheMagnetTheHeadingHolds() throws {
        #expect(try Self.headingError(centimetres: 1000) < 1.5)
    }

    /// A strong magnet (5 and 4 cm: 19 and 31 µT) is rejected until the hard-iron estimate has
    /// learned it, and the gyroscope carries the heading meanwhile: 4.9° and 3.7° RMS without
    /// the estimate (2026-11-24), 3.3° and 2.4° with it (2026-11-25), 1.2° and 1.4° once later
    /// fits refine the learned offset (2026-11-25, evening). Guards against using a
    /// disturbed field by its norm and dip alone: weighting each reading by its inverse square
    /// deviation after 20 s gave 9.5° and 26.5° here, since a reading can match the reference
    /// in norm and dip and still be tens of degrees off in heading.
    @Test(arguments: [5.0, 4.0])
    func aStrongMagnetCarriedWithTheSensorIsNotTrusted(centimetres: Double) throws {
        let error = try Self.headingError(centimetres: centimetres)
        #expect(error < 6, "\(centimetres) cm: \(error)° RMS heading")
    }

    /// A moderate magnet (7 and 6 cm: 6 and 9 µT) passes the norm and dip tests. Without the
    /// hard-iron estimate it was used at full weight: 4.9° and 4.7° RMS (2026-11-24); with
    /// it the offset is learned within seconds of turning and subtracted, to within the
    /// estimate's deadband (0.07 of the field, 3 µT): 2.2° and 3.2° (2026-11-25). With a
    /// 2 µT deadband it was 2.0° and 1.7°, but on recordings a deadband that small learned
    /// false offsets from attitude error (BROAD trial 31: 2.4° → 7.1°). The deadband now only
    /// decides whether the offset moves; once learned, later fits refine it: 1.2° and 1.2°.
    @Test(arguments: [7.0, 6.0])
    func aModerateMagnetCarriedWithTheSensorCostsLittleHeading(centimetres: Double) throws {
        let error = try Self.headingError(centimetres: centimetres)
        #expect(error < 3.5, "\(centimetres) cm: \(error)° RMS heading")
    }

    /// The same without the estimate: the failure the estimate fixes.
    @Test func withoutTheHardIronEstimateAModerateMagnetPullsTheHeading() throws {
        var settings = PoiseFilter.Settings()
        settings.hardIronEstimation = false
        let error = try Self.headingError(centimetres: 6, settings: settings)
        #expect(error > 3, "6 cm without the estimate: \(error)° RMS heading")
    }
}
