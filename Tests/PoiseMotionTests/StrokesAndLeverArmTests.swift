import PoiseMath
@testable import PoiseMotion
import Testing

/// The `strokes` and `lever` statements: hand strokes whose large accelerations all
/// point one way, and a sensor away from the centre of rotation.
@Suite struct StrokesAndLeverArmTests {
    @Test func strokesParseWithTheirStopAndDirection() throws {
        let script = try MotionScript(parsing: "strokes 10 s frequency 1.5 hz stop 4 g over 30 ms along 0,0,2")
        #expect(script.segments == [.strokes(direction: SIMD3(0, 0, 1), frequency: 1.5,
                                              stopAcceleration: 4 * 9.80665, stopDuration: 0.03, duration: 10)])
        #expect(script.leverArm == SIMD3(0, 0, 0))
    }

    @Test func aStopLongerThanHalfAPeriodIsAnErrorWithItsPosition() {
        #expect(throws: MotionScriptError.self) {
            try MotionScript(parsing: "strokes 10 s frequency 2 hz stop 4 g over 300 ms")
        }
        do {
            _ = try MotionScript(parsing: "rest 1\nstrokes 10 s frequency 2 hz stop 4 g over 300 ms", name: "m")
            Issue.record("a 300 ms stop at 2 Hz parsed")
        } catch {
            #expect(error.description.hasPrefix("m:2:43:"), "\(error.description)")
        }
    }

    @Test func leverTakesAVectorWithAUnitOnce() throws {
        let script = try MotionScript(parsing: "lever 0,0,-40 cm\nrest 1")
        #expect(abs(script.leverArm.z + 0.4) < 1e-12 && script.leverArm.x == 0)
        #expect(throws: MotionScriptError.self) { try MotionScript(parsing: "lever 0,0,1 m\nlever 1,0,0 m") }
        #expect(throws: MotionScriptError.self) { try MotionScript(parsing: "lever 0,0,1") }
        #expect(throws: MotionScriptError.self) { try MotionScript(parsing: "lever 0,0 m") }
    }

    /// Each stroke's velocity and displacement return to zero, while its stop exceeds 3 g.
    @Test(arguments: [(1.5, 4.0, 0.03), (2.4, 3.5, 0.025), (0.2, 0.2, 1.0)])
    func aStrokeIntegratesToZeroVelocityAndDisplacement(frequency: Double, stopG: Double, stop: Double) {
        let steps = 200_000
        let period = 1 / frequency
        let dt = period / Double(steps)
        var velocity = 0.0, position = 0.0, peak = 0.0
        for k in 0..<steps {
            let a = MotionGenerator.strokeAcceleration(at: (Double(k) + 0.5) * dt, frequency: frequency,
                                                       stop: stopG * 9.80665, stopDuration: stop)
            velocity += a * dt
            position += velocity * dt
            peak = min(peak, a)
        }
        #expect(abs(velocity) < 1e-6)
        #expect(abs(position) < 1e-4)
        #expect(abs(peak + stopG * 9.80665) < 1e-3)
    }

    /// Spinning about z with the sensor 1.5 m out: ω²r toward the centre, in the body frame;
    /// the world acceleration is the same vector turned by the attitude.
    @Test func aLeverArmAddsCentripetalAcceleration() throws {
        let script = try MotionScript(parsing: "lever 0,-1.5,0 m\nspin z 1 rad/s for 5 s")
        for sample in try MotionGenerator(script: script, sampleRate: 100) where sample.time > 0 {
            let f = sample.specificForce
            #expect(abs(f.x) < 1e-4 && abs(f.y - 1.5) < 1e-4 && abs(f.z - 9.80665) < 1e-3, "\(f)")
            let horizontal = sample.linearAcceleration
            #expect(abs((horizontal * horizontal).sum().squareRoot() - 1.5) < 1e-4)
        }
    }

    /// Swinging: the tangential part is ω̇ × r, so the specific force at the bottom of a
    /// pendulum-like swing (rate peak, no angular acceleration) is g + ω²r upward.
    @Test func aSwingAddsTangentialAndCentripetalAcceleration() throws {
        let script = try MotionScript(parsing: "lever 0,0,-0.4 m\nwobble 2 s amplitude 45 deg frequency 0.5 hz about y")
        let samples = Array(try MotionGenerator(script: script, sampleRate: 1000))
        let start = samples[0]   // θ = 0, ω = A·2πf, ω̇ = 0
        let omega = Double.pi / 4 * Double.pi
        #expect(abs(Double(start.specificForce.z) - (9.80665 + omega * omega * 0.4)) < 1e-3)
        // θ = A, ω = 0, ω̇ = −A(2πf)² about y: ω̇ × r = A(2πf)²·0.4 along body x, on top
        // of gravity's −g·sin A.
        let turning = samples[500]
        let tangential = Double.pi / 4 * Double.pi * Double.pi * 0.4
        #expect(abs(Double(turning.specificForce.x) - (-9.80665 * (0.5).squareRoot() + tangential)) < 1e-3,
                "\(turning.specificForce)")
    }
}
