import PoiseControl
import PoiseFlightSettings
import PoiseFusion
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
}
