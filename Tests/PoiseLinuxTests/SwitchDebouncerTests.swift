import PoiseControl
import PoiseHAL
import Testing

/// The arming switch's debouncing, shared by the libgpiod watcher and the simulated line.
@Suite struct SwitchDebouncerTests {
    @Test func aLevelCountsOnlyAfterHoldingForTheDebounceTime() {
        var d = SwitchDebouncer(holdTime: 0.02, initial: false, at: 0)
        // Contact bounce: on, off, on within a few ms.
        #expect(d.update(true, at: 1.000) == false)
        #expect(d.update(false, at: 1.002) == false)
        #expect(d.update(true, at: 1.004) == false)
        #expect(d.settlesAt == 1.024)
        #expect(d.update(true, at: 1.015) == false)
        #expect(d.update(true, at: 1.024) == true)
        #expect(d.settlesAt == nil)
    }

    @Test func aGlitchShorterThanTheHoldTimeIsIgnored() {
        var d = SwitchDebouncer(holdTime: 0.02, initial: true, at: 0)
        #expect(d.update(false, at: 2.000) == true)
        #expect(d.update(true, at: 2.010) == true)
        #expect(d.update(true, at: 3) == true)
    }

    @Test func noDebounceFollowsTheLineAtOnce() {
        var d = SwitchDebouncer(holdTime: 0, initial: false, at: 0)
        #expect(d.update(true, at: 0.001) == true)
        #expect(d.update(false, at: 0.002) == false)
    }
}
