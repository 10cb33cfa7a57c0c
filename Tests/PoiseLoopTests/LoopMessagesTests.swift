import PoiseControl
import PoiseMath
@testable import PoiseReporting
import Testing
@testable import PoiseLoop

/// The words the run prints for arming transitions and its status line.
@Suite struct LoopMessagesTests {
    let transitions = TransitionMessage(safety: SafetySettings(maxTilt: 45 * .pi / 180, armTilt: 5 * .pi / 180,
                                                               armHoldTime: 1.5, overrunLimit: 7))
    let fallen = Quaternion(axis: SIMD3(1, 0, 0), angle: 30 * .pi / 180)

    @Test func aStopSaysStopped() {
        #expect(transitions.text(state: .failsafe, reason: .stopRequested, attitude: .identity) == "stopped")
    }

    @Test func limitsAreNamedByTheirValues() {
        #expect(transitions.text(state: .failsafe, reason: .overrunStreak, attitude: .identity)
            == "failsafe — loop overran 7 ticks in a row (loop.overrun_limit)")
        let tilted = Quaternion(axis: SIMD3(0, 1, 0), angle: 60 * .pi / 180)
        #expect(transitions.text(state: .failsafe, reason: .tiltLimit, attitude: tilted)
            == "failsafe — tilt 60° beyond 45° (safety.max_tilt_deg)")
    }

    @Test func aClearedFaultSaysWhatArmingWaitsFor() {
        #expect(transitions.text(state: .disarmed, reason: .faultCleared, attitude: fallen)
            == "disarmed — fault cleared; arms again once level within 5° (safety.arm_tilt_deg) for 1.5 s (safety.arm_hold_s); tilt now 30°")
        var manual = transitions
        manual.safety.autoArm = false
        #expect(manual.text(state: .disarmed, reason: .faultCleared, attitude: fallen)
            == "disarmed — fault cleared; arming is not automatic (safety.auto_arm: false)")
        #expect(transitions.text(state: .armed, reason: .armingConditionsMet, attitude: .identity)
            == "armed — level, sensor healthy and filter initialised")
    }

    @Test func aSmallNegativeAngleReadsAsZero() {
        #expect(TickReporter.angle(-0.0001) == "+0.0°")
        #expect(TickReporter.angle(-0.01) == "-0.6°")
        #expect(TickReporter.angle(0) == "+0.0°")
    }

    @Test func aLinePrintedWhileTheStatusShowsErasesItAndDrawsItAgainBelow() {
        let status = "t 1.0 s  armed  pitch +0.1°"
        let line = StatusLine.framed("poise: SIGHUP: applied\n", shown: status)
        #expect(line.text == "\r\u{1B}[Kpoise: SIGHUP: applied\n" + status)
        #expect(line.shown == status)
        // No status showing: the line as it is.
        #expect(StatusLine.framed("poise: more\n", shown: nil) == ("poise: more\n", nil))
        // A piece of a line: the status is erased and not drawn again until the next redraw.
        #expect(StatusLine.framed("poise: ", shown: status) == ("\r\u{1B}[Kpoise: ", nil))
    }
}
