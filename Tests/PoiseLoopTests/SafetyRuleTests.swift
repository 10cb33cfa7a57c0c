import PoiseConfig
import PoiseControl
import PoiseFlightCore
import PoiseFusion
import Foundation
import PoiseLoop
import PoiseRun
import Testing
import PoiseMath
import PoiseSensors

/// Simulated time whose host clock jumps once: the process was stopped (SIGSTOP, a frozen
/// SD card, a swap storm) just before tick `stallTick` woke, for `gap` ns.
struct StallingClock: LoopClock {
    static var isRealTime: Bool { false }
    var inner: VirtualClock
    let stallTick: Int
    let gap: Int64
    var index = -1

    mutating func start() { inner.start(); index = -1 }
    mutating func waitForNextTick() -> (time: Double, lateness: Int64) {
        index += 1
        let (time, _) = inner.waitForNextTick()
        return (time, index == stallTick ? gap : 0)
    }
    func timestamp() -> Int64 { 0 }
    mutating func finishTick(at end: Int64) -> Bool { false }
    var nextTickTime: Double { inner.nextTickTime }
    var stopTime: Double { inner.stopTime }
    var skippedDeadlines: Int { 0 }
}

/// The safety rules of docs/safety.md on the simulated rigs, in simulated time.
@Suite struct SafetyRuleTests {
    static func configuration(_ name: String, replacing: [(String, String)] = [], appending extra: String = "") throws -> PoiseConfiguration {
        var text = try PoiseConfiguration.readText(path: ClosedLoopTests.repository + "/configs/" + name)
        for (old, new) in replacing {
            #expect(text.contains(old), "\(old)")
            text = text.replacingOccurrences(of: old, with: new)
        }
        return try PoiseConfiguration.parse(text: text + extra, file: name)
    }

    @Test func aStallDrivesEveryOutputSafeInTheTickAfterItAndNothingRearms() throws {
        let config = try Self.configuration("sim-balancing-robot.yaml")
        var loop = try SimulatedRig.balancingRobot(config)
        let safe = loop.core.mapper.safeCommands
        let stallTick = 6000   // 6 s: balancing by then
        var armedBefore = false, armedAfter = 0
        var stallRecord: (state: ArmState, reason: SafetyReason, outputsSafe: Bool, stall: Int64, stale: Bool)? = nil
        loop.run(clock: StallingClock(inner: VirtualClock(rateHz: 1000, duration: 10), stallTick: stallTick,
                                      gap: 2_000_000_000), each: { _, record in
            if record.tick == UInt64(stallTick - 1) { armedBefore = record.armState == .armed }
            if record.tick == UInt64(stallTick) {
                stallRecord = (record.armState, record.eventReason, record.outputs == safe, record.stallNanoseconds,
                               record.filterFlags.contains(.stale))
            }
            if record.tick > UInt64(stallTick), record.armState == .armed { armedAfter += 1 }
        })
        #expect(armedBefore)
        let r = try #require(stallRecord)
        #expect(r.state == .failsafe)
        #expect(r.reason == .stall)
        #expect(r.outputsSafe)
        #expect(r.stall == 2_000_000_000)
        #expect(r.stale)
        #expect(armedAfter == 0)
        #expect(loop.statistics.stalls == 1)
    }

    @Test func aLateTickWithinTheStallLimitChangesNothing() throws {
        let config = try Self.configuration("sim-balancing-robot.yaml")
        var loop = try SimulatedRig.balancingRobot(config)
        var failsafe = 0
        loop.run(clock: StallingClock(inner: VirtualClock(rateHz: 1000, duration: 8), stallTick: 6000,
                                      gap: 19_000_000), each: { _, record in
            if record.armState == .failsafe, !record.stopRequested { failsafe += 1 }
        })
        #expect(failsafe == 0)
        #expect(loop.statistics.stalls == 0)
    }

    /// The flip of the issue: the tilt failsafe fires, the fault clears, and the quad must not
    /// arm again by itself (it did at 13.3 s).
    @Test func aFlippedQuadrotorNeverRearmsByItself() throws {
        let config = try Self.configuration("sim-quad-x.yaml", replacing: [("gust_torque: 0.015", "gust_torque: 0.8")])
        var loop = try SimulatedRig.quadrotor(config)
        var arms = 0, failsafes = 0, armedAfterFailsafe = 0
        loop.runVirtual(duration: 20) { _, record in
            if record.eventReason != .none, record.armState == .armed { arms += 1 }
            if record.eventReason != .none, record.armState == .failsafe, !record.stopRequested { failsafes += 1 }
            if failsafes > 0, record.armState == .armed { armedAfterFailsafe += 1 }
        }
        #expect(failsafes >= 1, "the gust flips it")
        #expect(arms == 1)
        #expect(armedAfterFailsafe == 0)
    }

    /// A brown-out mid-flight: the simulated chip goes back to its power-on values at 5 s.
    /// The driver's checked registers find it within one round (one register a tick); in that
    /// tick every output is safe with the reason `chipReset` and the register logged; the
    /// driver re-configures the chip and samples flow again; the quadrotor does not re-arm.
    @Test func aChipResetMidRunDrivesEveryOutputSafeAndTheQuadrotorDoesNotRearm() throws {
        let config = try Self.configuration("sim-quad-x.yaml")
        var loop = try SimulatedRig.quadrotor(config)
        let safe = loop.core.mapper.safeCommands
        let checkedCount = loop.board.driver.settings.configurationTable.count
        var resetTick: UInt64? = nil
        var found: (tick: UInt64, state: ArmState, outputsSafe: Bool, notices: SensorNotices)? = nil
        var unsafeAfter = 0, arms = 0, samplesAfterRecovery = 0
        loop.runVirtual(duration: 9) { loop, record in
            if record.eventReason != .none, record.armState == .armed { arms += 1 }
            if resetTick == nil, record.tickTime >= 5 {
                #expect(record.armState == .armed)
                loop.board.driver.bus.imu.powerOnReset()
                resetTick = record.tick
            } else if found == nil, record.eventReason == .chipReset {
                found = (record.tick, record.armState, record.outputs == safe, record.sensorNotices)
            } else if found != nil {
                if record.outputs != safe { unsafeAfter += 1 }
                if record.sampleValid, record.sensorState == .running { samplesAfterRecovery += 1 }
            }
        }
        let reset = try #require(resetTick)
        let f = try #require(found)
        #expect(f.tick > reset && f.tick <= reset + UInt64(checkedCount))
        #expect(f.state == .failsafe)
        #expect(f.outputsSafe)
        #expect(f.notices.kinds.contains(.chipReset))
        let text = loop.board.driver.settings.messages(for: f.notices).map(\.text).joined()
        #expect(text.hasPrefix("chip reset: "), "\(text)")
        #expect(unsafeAfter == 0)
        #expect(samplesAfterRecovery > 1000, "re-configured: samples flow again")
        #expect(loop.board.driver.counters.chipResets == 1)
        #expect(arms == 1)
    }

    @Test func whenLevelIsRefusedForAQuadrotorWithItsLine() throws {
        #expect {
            _ = try Self.configuration("sim-quad-x.yaml", replacing: [("safety:\n", "safety:\n  rearm: when_level\n")])
        } throws: { error in
            let text = "\(error)"
            return text.contains("sim-quad-x.yaml:") && text.contains("safety.rearm") && text.contains("quadrotor")
        }
        // The balancing robot may.
        let robot = try Self.configuration("sim-balancing-robot.yaml", replacing: [("safety:\n", "safety:\n  rearm: when_level\n")])
        #expect(robot.safety.supervisor.rearm == .whenLevel)
    }

    static func switchRun(on: Double, off: Double) throws -> [(time: Double, state: ArmState, reason: SafetyReason)] {
        let config = try configuration("sim-balancing-robot.yaml",
                                       replacing: [("safety:\n", "safety:\n  arm_source: switch\n")],
                                       appending: "  switch_on_s: \(on)\n  switch_off_s: \(off)\n")
        var loop = try SimulatedRig.balancingRobot(config)
        var events: [(time: Double, state: ArmState, reason: SafetyReason)] = []
        loop.runVirtual(duration: 8) { _, record in
            if record.eventReason != .none, !record.stopRequested {
                events.append((record.tickTime, record.armState, record.eventReason))
            }
        }
        return events
    }

    @Test func theSimulatedSwitchArmsOnItsEdgeAndDisarmsWhenOff() throws {
        let events = try Self.switchRun(on: 4, off: 6)
        #expect(events.map(\.reason) == [.switchArmed, .switchOff], "\(events)")
        // Debounced (20 ms) after each flip.
        #expect(events.first.map { $0.time >= 4 && $0.time < 4.1 } == true)
        #expect(events.last.map { $0.time >= 6 && $0.time < 6.1 } == true)
    }

    @Test func aSwitchFlippedBeforeTheRobotIsReadyDoesNotArmIt() throws {
        // On at 0.2 s: the gyroscope bias and the filter are still starting.
        let events = try Self.switchRun(on: 0.2, off: 0)
        #expect(events.isEmpty, "\(events)")
    }
}
