import PoiseConfig
import PoiseControl
import PoiseLoop
import Foundation
import Testing
import PoiseMath

/// The controllers in closed loop with the plant models, through the register-level
/// simulated MPU-9250 and the default filter, in simulated time (deterministic).
@Suite struct ClosedLoopTests {
    static let repository = String(#filePath.split(separator: "/").dropLast(3).joined(separator: "/")).withLeadingSlash

    static func configuration(_ name: String, _ extra: String = "") throws -> PoiseConfiguration {
        let path = repository + "/configs/" + name
        if extra.isEmpty { return try PoiseConfiguration.load(path: path) }
        let text = try PoiseConfiguration.readText(path: path) + extra
        return try PoiseConfiguration.parse(text: text, file: name)
    }

    static func simulate(_ configuration: PoiseConfiguration, seconds: Double) throws -> SimulationReport {
        var options = RunOptions(signals: StopSignals())
        options.virtualDuration = seconds
        options.quiet = true
        return try #require(try LoopRunner.run(configuration, options: options).report)
    }

    @Test func balancingRobotRecoversFromTenDegreesWithinTwoSeconds() throws {
        let config = try Self.configuration("sim-balancing-robot.yaml")
        #expect(config.simulation.initialTiltDegrees == 10)
        let report = try Self.simulate(config, seconds: 15)
        let armed = try #require(report.armedAt)
        // Released from 10° when it arms; within 1° of upright 2 s later and to the end.
        #expect(report.truePitch.first.map { abs($0 - 10) < 0.01 } == true)
        let settled = try #require(report.pitchWithinOneDegreeFrom)
        #expect(settled - armed <= 2)
        #expect(report.worstTiltAfterSettling.pitch < 1)
    }

    @Test(arguments: ["quad_x", "quad_plus"])
    func quadrotorHoldsLevelThroughAGust(kind: String) throws {
        var config = try Self.configuration("sim-quad-x.yaml")
        if kind == "quad_plus" {
            config = try Self.configuration("sim-quad-x.yaml", "")
            var text = try PoiseConfiguration.readText(path: Self.repository + "/configs/sim-quad-x.yaml")
            text = text.replacingOccurrences(of: "kind: quad_x", with: "kind: quad_plus")
            config = try PoiseConfiguration.parse(text: text, file: "plus.yaml")
        }
        #expect(config.simulation.gustTorque > 0)
        let report = try Self.simulate(config, seconds: 12)
        #expect(report.armedAt != nil)
        #expect(report.worstTiltAfterSettling.pitch <= 2 && report.worstTiltAfterSettling.roll <= 2,
                "\(report.worstTiltAfterSettling)")
        // The gust did push it (the check above is not vacuous).
        #expect(report.truePitch.map(abs).max()! > 0.5)
    }

    @Test func sensorLossDrivesEveryOutputSafeInTheSameTick() throws {
        let config = try Self.configuration("sim-balancing-robot.yaml")
        var loop = try SimulatedRig.balancingRobot(config)
        let safe = loop.core.mapper.safeCommands
        var lossTick: UInt64? = nil
        var checked = false
        loop.runVirtual(duration: 8) { loop, record in
            if record.time >= 6, lossTick == nil {
                #expect(record.armState == ArmState.armed.rawValue)
                loop.board.driver.bus.imu.faults.nack = true   // the chip stops answering
                lossTick = record.tick + 1
            } else if let lossTick, record.tick == lossTick {
                #expect(record.readFailed)
                #expect(record.armState == ArmState.failsafe.rawValue)
                #expect(record.eventReason == SafetyReason.sensorLost.rawValue)
                #expect(record.outputs == safe)
                checked = true
            } else if let lossTick, record.tick > lossTick {
                #expect(record.outputs == safe)
            }
        }
        #expect(checked)
    }

    @Test func tiltBeyondTheLimitDrivesEveryOutputSafeInTheSameTick() throws {
        // A violent gust (1 N·m for 0.3 s) flips the quad on its stand past 60°.
        let config = try Self.configuration("sim-quad-x.yaml", "")
        var text = try PoiseConfiguration.readText(path: Self.repository + "/configs/sim-quad-x.yaml")
        text = text.replacingOccurrences(of: "gust_torque: 0.015", with: "gust_torque: 1.0")
        let violent = try PoiseConfiguration.parse(text: text, file: "violent.yaml")
        _ = config
        var loop = try SimulatedRig.quadrotor(violent)
        let safe = loop.core.mapper.safeCommands
        let limit = violent.safety.maxTiltDegrees * .pi / 180
        var tripped: UInt64? = nil
        var worstTruth = 0.0
        loop.runVirtual(duration: 8) { _, record in
            let q = record.attitude
            let tilt = acos(Double(1 - 2 * (q.x * q.x + q.y * q.y)))
            let t = record.truth
            worstTruth = max(worstTruth, acos(Double(1 - 2 * (t.x * t.x + t.y * t.y))) * 180 / .pi)
            if tripped == nil, tilt > limit {
                tripped = record.tick
                #expect(record.armState == ArmState.failsafe.rawValue)
                #expect(record.eventReason == SafetyReason.tiltLimit.rawValue)
                #expect(record.outputs == safe)
            }
        }
        #expect(tripped != nil)
        #expect(worstTruth > 60)
    }
}

extension String {
    var withLeadingSlash: String { hasPrefix("/") ? self : "/" + self }
}
