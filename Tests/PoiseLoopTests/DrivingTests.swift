import PoiseConfig
import PoiseControl
import PoiseFlightCore
import PoiseMath
import PoiseRun
import PoiseSimulation
import Testing

/// The simulated balancing robot follows the default drive script (accelerate at 0.5 m/s²
/// to 0.5 m/s, turn left 90°, brake, stand) with the default gains: it stays up, its speed
/// tracks, and its true pitch stays within 2° of the lean the setpoint asks for.
@Suite struct DrivingTests {
    static func configuration(_ extra: String = "") throws -> PoiseConfiguration {
        let text = try PoiseConfiguration.readText(path: ClosedLoopTests.repository + "/configs/sim-balancing-robot.yaml")
            .replacingOccurrences(of: "  kind: balance\n", with: "  kind: balance\n  balance:\n    setpoint_file: preset:default\n" + extra)
        return try PoiseConfiguration.parse(text: text, file: "drive.yaml")
    }

    struct Run {
        var tracking = DriveTracking()
        var fellOrFailed = false
        var armed = false
        var headingChange = 0.0
        var finalSpeed = 0.0
    }

    static func drive(_ configuration: PoiseConfiguration, seconds: Double = 16) throws -> Run {
        var loop = try SimulatedRig.balancingRobot(configuration)
        var run = Run()
        loop.runVirtual(duration: seconds) { _, record in
            run.tracking.add(record)
            if record.armState == .armed { run.armed = true }
            if run.armed, !record.stopRequested, record.armState != .armed { run.fellOrFailed = true }
        }
        let plant = loop.board.world.plant
        run.headingChange = plant.heading * 180 / .pi
        run.finalSpeed = plant.speed
        return run
    }

    static func check(_ run: Run, speedTolerance: Double) {
        let t = run.tracking
        #expect(run.armed && !run.fellOrFailed)
        #expect(t.driven)
        #expect(t.topTrueSpeed > 0.45 && t.topTrueSpeed < 0.5 + 2 * speedTolerance, "top speed \(t.topTrueSpeed)")
        #expect(t.worstSpeedError < speedTolerance, "speed error \(t.worstSpeedError) m/s after settling")
        #expect(t.worstLeanError < 2, "true pitch \(t.worstLeanError)° from the setpoint's lean after settling")
        #expect(abs(run.headingChange - 90) < 10, "turned \(run.headingChange)°")
        #expect(abs(run.finalSpeed) < speedTolerance, "still rolling at \(run.finalSpeed) m/s")
    }

    @Test func theRobotFollowsTheDefaultScriptOnItsDriveEstimate() throws {
        let run = try Self.drive(Self.configuration())
        Self.check(run, speedTolerance: 0.2)
        // The drive estimate: within a few cm/s of the truth at cruise.
        #expect(run.tracking.worstEstimateError < 0.1, "\(run.tracking.worstEstimateError)")
    }

    @Test func theRobotFollowsTheDefaultScriptOnItsEncoders() throws {
        let run = try Self.drive(Self.configuration("    encoders:\n      counts_per_revolution: 1320\n"))
        Self.check(run, speedTolerance: 0.2)
        // The encoders measure the speed, not a model of it.
        #expect(run.tracking.worstEstimateError < 0.03, "\(run.tracking.worstEstimateError)")
    }
}
