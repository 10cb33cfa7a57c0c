import PoiseMath
@testable import PoiseMotion
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// Angle of the rotation between two attitudes, radians (in Double for a sharp test).
func angleBetween(_ a: Quaternion, _ b: Quaternion) -> Double {
    // Relative rotation a* ⊗ b in Double; the angle from its vector part stays accurate
    // near zero, unlike acos of the dot product.
    let p = RotationD(a), q = RotationD(b)
    let r = RotationD(w: p.w, x: -p.x, y: -p.y, z: -p.z) * q
    let v = (r.x * r.x + r.y * r.y + r.z * r.z).squareRoot()
    return 2 * atan2(v, abs(r.w))
}

@Suite struct MotionGeneratorTests {
    @Test func timesComeFromTheIndexAndCoverTheScript() throws {
        let script = try MotionScript(parsing: "rest 1\nrotate z 90 deg over 1 s")
        var generator = try MotionGenerator(script: script, sampleRate: 100)
        #expect(generator.sampleCount == 201)
        var count = 0
        while let sample = generator.next() {
            #expect(sample.time == Double(sample.index) / 100)
            #expect(sample.index == count)
            count += 1
        }
        #expect(count == 201)
        #expect(generator.next() == nil)
    }

    @Test func rotationEndsAtTheCommandedAttitudeWithZeroRate() throws {
        let script = try MotionScript(parsing: "rotate z 90 deg over 1 s\nrotate x 90 deg over 1 s")
        let samples = Array(try MotionGenerator(script: script, sampleRate: 50))
        let afterZ = samples[50]
        let expectedZ = Quaternion(w: 0.5.squareRoot().float, x: 0, y: 0, z: 0.5.squareRoot().float)
        #expect(angleBetween(afterZ.attitude, expectedZ) < 1e-6)
        #expect(afterZ.angularRate == .zero)
        // Body-axis composition: z first, then x about the NEW body x = world y.
        let expected = Quaternion(axis: SIMD3(0, 0, 1), angle: .pi / 2) * Quaternion(axis: SIMD3(1, 0, 0), angle: .pi / 2)
        #expect(angleBetween(samples.last!.attitude, expected) < 1e-6)
        #expect(samples.last!.angularRate == .zero)
        // Peak rate of the minimum-jerk profile: 1.875 · angle / duration at the midpoint.
        #expect(abs(Double(samples[25].angularRate.z) - 1.875 * .pi / 2) < 1e-5)
    }

    @Test func spinHasTheConstantRateAboutTheBodyAxis() throws {
        let script = try MotionScript(parsing: "spin 0,0.6,0.8 90 deg/s for 1 s")
        for sample in try MotionGenerator(script: script, sampleRate: 20) {
            let expected = SIMD3<Float>(0, 0.6, 0.8) * (Float.pi / 2)
            #expect(maxDifference(sample.angularRate, expected) < 1e-6)
        }
    }

    /// The core promise: integrating the true angular rate reproduces the true attitude.
    /// Midpoint rule at 2 kHz using the rate at the half step (from a generator at twice
    /// the rate), so rate steps at segment boundaries fall on grid points.
    @Test(arguments: ["demo", "tumble", "figure-eight"])
    func integratedRateReproducesAttitude(preset: String) throws {
        let script = try #require(MotionScript.preset(named: preset))
        let rate = 1000.0
        let start = Quaternion(axis: SIMD3(0.48, 0.6, 0.64), angle: 0.7)
        let coarse = Array(try MotionGenerator(script: script, sampleRate: rate, initialAttitude: start))
        var fine = try MotionGenerator(script: script, sampleRate: 2 * rate, initialAttitude: start)
        var q = RotationD(coarse[0].attitude)
        var worst = 0.0
        _ = fine.next()
        for k in 1..<coarse.count {
            let middle = fine.next()!
            _ = fine.next()
            let w = Vector3D(middle.angularRate)
            let angle = w.length / rate
            let step = angle > 0 ? RotationD(axis: (1 / w.length) * w, angle: angle) : .identity
            q = (q * step).normalized
            worst = Swift.max(worst, angleBetween(q.float, coarse[k].attitude))
        }
        #expect(worst < 2e-5, "worst error \(worst) rad over \(coarse.count) samples")
    }

    @Test func accelerometerAtRestIsGravityInTheBody() throws {
        let script = try MotionScript(parsing: "rotate 1,2,3 123 deg over 1 s\nrest 1\nrotate y 250 deg over 1 s\nrest 1")
        let start = Quaternion(axis: SIMD3(0, 0.6, 0.8), angle: 2)
        for sample in try MotionGenerator(script: script, sampleRate: 100, initialAttitude: start) where !sample.movement {
            let expected = sample.attitude.inverseRotate(SIMD3(0, 0, 9.80665))
            #expect(maxDifference(sample.specificForce, expected) < 1e-5)
            #expect(sample.linearAcceleration == .zero)
            let field = sample.attitude.inverseRotate(SIMD3(0, 20, -40))
            #expect(maxDifference(sample.magneticField, field) < 1e-4)
        }
    }

    @Test func shakeAddsLinearAccelerationWithoutRotation() throws {
        let script = try MotionScript(parsing: "shake 1 s amplitude 2 m/s2 frequency 1 hz along y")
        let samples = Array(try MotionGenerator(script: script, sampleRate: 100))
        #expect(samples.allSatisfy { $0.angularRate == .zero && $0.attitude == .identity })
        #expect(abs(samples[25].specificForce.y - 2) < 1e-6)
        #expect(abs(samples[25].specificForce.z - 9.80665) < 1e-6)
    }

    @Test func moveEndsAtRestWithZeroVelocity() throws {
        let script = try MotionScript(parsing: "move x 1 m over 2 s")
        let samples = Array(try MotionGenerator(script: script, sampleRate: 1000))
        // Trapezoid integration of the acceleration twice: velocity ends at 0, distance 1 m.
        var velocity = 0.0, position = 0.0
        for k in 1..<samples.count {
            let a0 = Double(samples[k - 1].linearAcceleration.x), a1 = Double(samples[k].linearAcceleration.x)
            let v1 = velocity + (a0 + a1) / 2000
            position += (velocity + v1) / 2000
            velocity = v1
        }
        #expect(abs(velocity) < 1e-6)
        #expect(abs(position - 1) < 1e-5)
    }

    @Test func initialHeadingAndDeclinationTurnTheField() throws {
        let script = try MotionScript(parsing: "rest 0.1")
        let environment = MotionEnvironment(declination: 10 * .pi / 180)
        let first = try MotionGenerator(
            script: script, sampleRate: 10, initialHeading: .pi / 2, environment: environment
        ).first { _ in true }!
        // Heading 90° (nose to the west for a yaw about up) and the field 10° east of north.
        let world = SIMD3<Float>(20 * Float(sin10), 20 * Float(cos10), -40)
        let expected = Quaternion(axis: SIMD3(0, 0, 1), angle: .pi / 2).inverseRotate(world)
        #expect(maxDifference(first.magneticField, expected) < 1e-4)
    }

    @Test func movementRangesMatchTheFlags() throws {
        let script = try MotionScript(parsing: "rest 0.333\nrotate z 1 rad over 0.5\nspin x 1 rad/s for 0.25\nrest 0.1\nwobble 0.2 amplitude 1 deg frequency 3 hz")
        for rate in [7.0, 100.0, 285.714286, 1000] {
            let generator = try MotionGenerator(script: script, sampleRate: rate)
            let flags = Array(generator).map(\.movement)
            var fromRanges = [Bool](repeating: false, count: flags.count)
            for range in generator.movementRanges { for i in range { fromRanges[i] = true } }
            #expect(flags == fromRanges, "rate \(rate)")
            #expect(generator.movementRanges.count == 2)
            let header = generator.movementHeaderValue
            #expect(header.split(separator: ",").count == 2 && header.contains(":"))
        }
    }

    @Test func handBuiltSegmentsAreValidated() throws {
        let bad = MotionScript(segments: [.rest(duration: 1), .rotate(axis: SIMD3(0, 0, 2), angle: 1, duration: 1)])
        #expect(throws: MotionSettingsError.self) { try MotionGenerator(script: bad, sampleRate: 10) }
        let zero = MotionScript(segments: [.spin(axis: SIMD3(1, 0, 0), rate: 1, duration: 0)])
        #expect(throws: MotionSettingsError.self) { try MotionGenerator(script: zero, sampleRate: 10) }
        // Huge arguments stay finite instead of trapping.
        #expect(abs(Elementary.sin(1e300)) <= 1)
        #expect(abs(Elementary.sin(1e14) - -0.2094083074964523) < 0.05)
        let empty = try MotionGenerator(script: MotionScript(segments: []), sampleRate: 10)
        #expect(empty.sampleCount == 0 && empty.movementHeaderValue == "")
    }

    @Test func badRateIsAnErrorNotACrash() throws {
        let script = try MotionScript(parsing: "rest 1")
        #expect(throws: MotionSettingsError.self) { try MotionGenerator(script: script, sampleRate: 0) }
        #expect(throws: MotionSettingsError.self) { try MotionGenerator(script: script, sampleRate: .nan) }
        #expect(throws: MotionSettingsError.self) {
            try MotionGenerator(script: MotionScript(parsing: "rest 1000000"), sampleRate: 1e6)
        }
    }

    /// Random scripts of valid statements parse and give finite unit quaternions.
    @Test func randomValidScriptsGenerateFiniteUnitAttitudes() throws {
        var random = DeterministicRandom(seed: 2026)
        func number(_ range: ClosedRange<Double>) -> String {
            let x = range.lowerBound + random.nextUniform() * (range.upperBound - range.lowerBound)
            return String(x)
        }
        func axis() -> String {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: return ["x", "y", "z", "-x", "-y", "-z"][Int.random(in: 0..<6, using: &random)]
            default: return "\(number(-1...1)),\(number(-1...1)),\(number(0.1...1))"
            }
        }
        for _ in 0..<150 {
            var lines: [String] = []
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let d = number(0.01...1.5)
                let statement: String
                switch Int.random(in: 0..<7, using: &random) {
                case 0: statement = "rest \(d)"
                case 1: statement = "rotate \(axis()) \(number(-720...720)) deg over \(d) s"
                case 2: statement = "spin \(axis()) \(number(-30...30)) rad/s for \(d)"
                case 3: statement = "wobble \(d) s amplitude \(number(0...90)) deg frequency \(number(0.1...20)) hz about \(axis())"
                case 4: statement = "shake \(d) amplitude \(number(-3...3)) g frequency \(number(0.1...50)) hz along \(axis())"
                case 5: statement = "move \(axis()) \(number(-200...200)) cm over \(d) s"
                default: statement = "repeat \(Int.random(in: 1...3, using: &random)) { rest \(d) ; rotate z 10 deg over 0.1 }"
                }
                lines.append(statement)
            }
            let source = lines.joined(separator: Bool.random(using: &random) ? "\n" : " ; ")
            let script = try MotionScript(parsing: source, name: "random")
            let start = Quaternion(axis: SIMD3(0, 0, 1), angle: Float(random.nextUniform() * 6))
            for sample in try MotionGenerator(script: script, sampleRate: 60, initialAttitude: start) {
                let q = sample.attitude
                #expect(q.components.x.isFinite && q.components.y.isFinite && q.components.z.isFinite && q.components.w.isFinite)
                #expect(abs(q.lengthSquared - 1) < 1e-5, "\(source)")
                #expect(sample.angularRate.x.isFinite && sample.specificForce.x.isFinite && sample.magneticField.z.isFinite)
            }
        }
    }
}

private let sin10 = Elementary.sin(10 * .pi / 180)
private let cos10 = Elementary.cos(10 * .pi / 180)

extension Double {
    fileprivate var float: Float { Float(self) }
}

/// Largest per-axis difference.
func maxDifference(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float {
    let d = a - b
    return Swift.max(abs(d.x), abs(d.y), abs(d.z))
}
