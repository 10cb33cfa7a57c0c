import Foundation
import PoiseMath
@testable import PoiseSensors
import Testing

/// The check that the samples behind a magnetometer fit can support it.
@Suite struct MagnetometerCoverageTests {
    /// An identity fit of a 50 µT field: the corrected field is the sample itself.
    let identity = MagnetometerCalibration(hardIron: .zero, softIron: (SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)),
                                           fieldStrength: 50, residual: 0)

    /// `count` directions spread evenly over the sphere (a Fibonacci lattice), times 50 µT.
    func sphere(_ count: Int) -> [SIMD3<Float>] {
        (0..<count).map { i in
            let z = 1 - 2 * (Double(i) + 0.5) / Double(count)
            let r = (1 - z * z).squareRoot(), angle = Double(i) * 2.399963229728653
            return SIMD3<Float>(Float(r * cos(angle)), Float(r * sin(angle)), Float(z)) * 50
        }
    }

    @Test func theWholeSphereHasAThirdOfItsVarianceAlongEveryAxis() throws {
        #expect(abs(identity.directionSpread(sphere(2000)) - 1.0 / 3) < 0.005)
        try identity.checkCoverage(sphere(2000))
    }

    @Test func aTurnAboutOneAxisIsRefused() {
        // Every direction on one cone: the field turned about z only.
        let ring = (0..<360).map { i in
            Quaternion(axis: SIMD3(0, 0, 1), angle: Float(i) * .pi / 180).inverseRotate(SIMD3<Float>(30, 0, -40))
        }
        #expect(identity.directionSpread(ring) < 1e-6)
        let error = #expect(throws: CalibrationError.self) { try identity.checkCoverage(ring) }
        #expect(error?.description.contains("turning about one axis is not enough") == true)
    }

    @Test func aFieldNothingLikeTheEarthsIsRefused() {
        var tiny = identity
        tiny.fieldStrength = 0.3
        let error = #expect(throws: CalibrationError.self) { try tiny.checkCoverage(sphere(500)) }
        #expect(error?.description.contains("the fitted field is 0.3 µT") == true)
        var strong = identity
        strong.fieldStrength = 400
        #expect(throws: CalibrationError.self) { try strong.checkCoverage(sphere(500)) }
    }

    @Test func noUsableSampleHasNoSpread() {
        #expect(identity.directionSpread([]) == 0)
        #expect(identity.directionSpread([.zero, .zero]) == 0)
    }
}
