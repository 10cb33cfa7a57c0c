import PoiseConfig
import Foundation
import PoiseControl
import PoiseLoop
import PoiseRun
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

    /// A FIFO at half the loop rate leaves every other tick without a new sample. That is
    /// not a failed read: the board takes "failed" from the driver, which counted none, so
    /// the robot arms and balances (it reported a failure on half the ticks and never armed
    /// while the simulated board had its own rule).
    @Test func aFIFOSlowerThanTheLoopIsNotAFailedRead() throws {
        let text = try PoiseConfiguration.readText(path: Self.repository + "/configs/sim-balancing-robot.yaml")
            .replacingOccurrences(of: "  sample_rate_hz: 1000\n", with: "  sample_rate_hz: 500\n  fifo: true\n")
        let config = try PoiseConfiguration.parse(text: text, file: "fifo.yaml")
        #expect(config.sensor.driver.useFIFO && config.sensor.driver.outputRate == 500)
        var loop = try SimulatedRig.balancingRobot(config)
        var failed = 0, withoutSample = 0, armed = false
        loop.runVirtual(duration: 6) { _, record in
            if record.readFailed { failed += 1 }
            if record.sensorState == .running, !record.sampleValid { withoutSample += 1 }
            if record.armState == .armed { armed = true }
        }
        #expect(withoutSample > 1000, "the FIFO leaves ticks without a sample: \(withoutSample)")
        #expect(failed == 0)
        #expect(loop.board.sensorErrors == 0)
        #expect(armed)
    }

    @Test func sensorLossDrivesEveryOutputSafeInTheSameTick() throws {
        let config = try Self.configuration("sim-balancing-robot.yaml")
        var loop = try SimulatedRig.balancingRobot(config)
        let safe = loop.core.mapper.safeCommands
        var lossTick: UInt64? = nil
        var checked = false
        loop.runVirtual(duration: 8) { loop, record in
            if record.time >= 6, lossTick == nil {
                #expect(record.armState == .armed)
                loop.board.driver.bus.imu.faults.nack = true   // the chip stops answering
                lossTick = record.tick + 1
            } else if let lossTick, record.tick == lossTick {
                #expect(record.readFailed)
                #expect(record.armState == .failsafe)
                #expect(record.eventReason == .sensorLost)
                #expect(record.outputs == safe)
                checked = true
            } else if let lossTick, record.tick > lossTick {
                #expect(record.outputs == safe)
            }
        }
        #expect(checked)
    }

    /// A chip that stops converting answers every read with its last sample. That sample is
    /// not new, so no tick counts it: `safety.sensor_timeout_ms` (20 ms) after the last new
    /// one the loop goes failsafe (it took the stuck-data check, 50 ms, when every read
    /// counted as new).
    @Test func aChipThatStopsConvertingIsLostAfterTheSensorTimeout() throws {
        let config = try Self.configuration("sim-balancing-robot.yaml")
        #expect(config.safety.supervisor.sensorTimeout == 0.02 && config.loop.rateHz == 1000)
        var loop = try SimulatedRig.balancingRobot(config)
        var lastNew: Double? = nil, failsafeAt: Double? = nil, stopped = false
        loop.runVirtual(duration: 7) { loop, record in
            if !stopped, record.time >= 6 {
                #expect(record.armState == .armed)
                // No more conversions; the data registers keep their values. (SLEEP would do
                // it too, but it changes PWR_MGMT_1, which the checked registers take for a
                // chip reset within one round, before the timeout this test measures.)
                loop.board.driver.bus.imu.faults.stopsConverting = true
                stopped = true
                lastNew = record.time
            } else if stopped, failsafeAt == nil {
                #expect(!record.sampleValid)
                if record.armState == .failsafe {
                    failsafeAt = record.tickTime
                    #expect(record.eventReason == .sensorLost)
                }
            }
        }
        let last = try #require(lastNew), failsafe = try #require(failsafeAt)
        #expect(failsafe - last > 0.019 && failsafe - last <= 0.0215, "failsafe \(failsafe - last) s after the last new sample")
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
        let limit = Double(violent.safety.supervisor.maxTilt)
        var tripped: UInt64? = nil
        var worstTruth = 0.0
        loop.runVirtual(duration: 8) { _, record in
            let q = record.attitude
            let tilt = acos(Double(1 - 2 * (q.x * q.x + q.y * q.y)))
            let t = record.truth
            worstTruth = max(worstTruth, acos(Double(1 - 2 * (t.x * t.x + t.y * t.y))) * 180 / .pi)
            if tripped == nil, tilt > limit {
                tripped = record.tick
                #expect(record.armState == .failsafe)
                #expect(record.eventReason == .tiltLimit)
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
