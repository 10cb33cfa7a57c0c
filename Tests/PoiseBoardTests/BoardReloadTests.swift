import PoiseControl
import PoiseFlightSettings
import PoiseFusion
import PoiseLive
import Testing
@testable import PoiseBoard

/// SIGHUP on the board: what a running loop cannot take is named, and a safety limit may
/// narrow but never widen while armed.
struct BoardReloadTests {
    @Test func gainsAndLimitsAreLiveTheRestNeedsARestart() {
        let running = FlightSettings(safety: SafetySettings())
        var fresh = running
        fresh.safety.maxTilt = running.safety.maxTilt * 0.5
        #expect(BoardReload.restartOnly(running, fresh).isEmpty)
        fresh.loopRateHz = running.loopRateHz * 2
        fresh.rig.i2cBus = "/dev/i2c-3"
        fresh.filter.kind = .madgwick
        #expect(BoardReload.restartOnly(running, fresh) == ["the filter", "loop.rate_hz", "the rig (bus, sensor, lines, telemetry, recorder)"])
    }

    @Test func widenedLimitsAreNamed() {
        let old = SafetySettings()
        var new = old
        #expect(BoardReload.widened(from: old, to: new).isEmpty)
        new.maxTilt = old.maxTilt * 2
        new.armHoldTime = old.armHoldTime / 2
        new.stallTime = old.stallTime * 2
        #expect(BoardReload.widened(from: old, to: new) == ["safety.max_tilt_deg", "safety.arm_hold_s", "safety.stall_ms"])
        new = old
        new.maxTilt = old.maxTilt / 2
        #expect(BoardReload.widened(from: old, to: new).isEmpty)
    }

    /// A reload takes the compiled file and the stored parameters: a value set over MAVLink and
    /// not stored that it changes is named, in the words `poise run` uses (ReloadNotice).
    @Test func aReloadNamesTheUnstoredChangesItReverts() throws {
        let values = [Double](repeating: 1, count: FlightParameters.all.count)
        var state = BoardParameterState(BoardParameters.Loaded(settings: FlightSettings(safety: SafetySettings()), values: values,
                                                               compiled: values, stored: nil))
        let gain = try #require(FlightParameters.all.firstIndex { $0.name == "BAL_PIT_P" })
        let other = try #require(FlightParameters.all.firstIndex { $0.name == "BAL_PIT_D" })
        state.values[gain] = 32
        state.changed[gain] = true
        state.changed[other] = true  // set over the link to the value the reload takes: nothing undone
        var fresh = values
        fresh[gain] = 31.5
        let reverted = BoardReload.reverted(state, to: fresh)
        #expect(reverted == ["BAL_PIT_P 32.0 -> 31.5"])
        #expect(ReloadNotice.reverted(reverted) == "SIGHUP reverted 1 change set over MAVLink, not stored: BAL_PIT_P 32.0 -> 31.5")
        state.changed[gain] = false  // stored: the reload takes it as the file's
        #expect(BoardReload.reverted(state, to: fresh).isEmpty)
        #expect(ReloadNotice.reverted([]) == nil)
        #expect(ReloadNotice.reverted(["A 1 -> 2", "B 3 -> 4"]) == "SIGHUP reverted 2 changes set over MAVLink, not stored: A 1 -> 2, B 3 -> 4")
    }
}
