import PoiseControl
import Testing

@Suite struct ArmingSupervisorTests {
    let settings = SafetySettings(maxTilt: 0.5, armTilt: 0.2, armHoldTime: 0.1, sensorTimeout: 0.02, overrunLimit: 3)

    /// Runs healthy, level ticks at 100 Hz from `start` for `count` ticks.
    func level(_ s: inout ArmingSupervisor, from start: Double, ticks count: Int) -> ArmState {
        var state = s.state
        for i in 0..<count { state = s.update(SafetyInputs(time: start + Double(i) * 0.01)) }
        return state
    }

    @Test func disarmedUntilConditionsHoldForTheHoldTime() {
        var s = ArmingSupervisor(settings: settings)
        #expect(s.update(SafetyInputs(time: 0, estimatorReady: false)) == .disarmed)
        #expect(s.update(SafetyInputs(time: 0.01, tilt: 0.3)) == .disarmed)   // not level enough
        #expect(level(&s, from: 0.02, ticks: 10) == .disarmed)
        #expect(level(&s, from: 0.12, ticks: 2) == .armed)
        #expect(s.reason == .armingConditionsMet)
    }

    @Test(arguments: [
        (SafetyInputs(time: 1, tilt: 0.6), SafetyReason.tiltLimit),
        (SafetyInputs(time: 1, freshSample: false, sensorFailed: true), .sensorLost),
        (SafetyInputs(time: 1, attitudeFinite: false), .nonFiniteAttitude),
        (SafetyInputs(time: 1, tilt: .nan), .nonFiniteAttitude),
        (SafetyInputs(time: 1, commandFinite: false), .nonFiniteCommand),
        (SafetyInputs(time: 1, overrunStreak: 3), .overrunStreak),
        (SafetyInputs(time: 1, stopRequested: true), .stopRequested),
        (SafetyInputs(time: 1, unexpectedError: true), .unexpectedError),
    ])
    func everyFaultDisarmsInTheSameTick(fault: SafetyInputs, reason: SafetyReason) {
        var s = ArmingSupervisor(settings: settings)
        #expect(level(&s, from: 0, ticks: 50) == .armed)
        #expect(s.update(fault) == .failsafe)
        #expect(s.lastEvent == SafetyEvent(time: 1, from: .armed, to: .failsafe, reason: reason))
    }

    @Test func staleSamplesCountAsSensorLossAfterTheTimeout() {
        var s = ArmingSupervisor(settings: settings)
        #expect(level(&s, from: 0, ticks: 50) == .armed)
        #expect(s.update(SafetyInputs(time: 0.5, freshSample: false)) == .armed)
        #expect(s.update(SafetyInputs(time: 0.52, freshSample: false)) == .failsafe)
        #expect(s.reason == .sensorLost)
    }

    @Test func eachTransitionIsReportedOnce() {
        var s = ArmingSupervisor(settings: settings)
        _ = level(&s, from: 0, ticks: 50)
        _ = s.update(SafetyInputs(time: 1, tilt: 0.6))
        #expect(s.lastEvent != nil)
        _ = s.update(SafetyInputs(time: 1.01, tilt: 0.7))
        #expect(s.lastEvent == nil)
    }

    @Test func rearmsAfterAClearingFaultButNotAfterAStop() {
        var s = ArmingSupervisor(settings: settings)
        _ = level(&s, from: 0, ticks: 50)
        _ = s.update(SafetyInputs(time: 1, tilt: 0.6))
        #expect(s.update(SafetyInputs(time: 1.01)) == .disarmed)
        #expect(s.reason == .faultCleared)
        #expect(level(&s, from: 1.02, ticks: 20) == .armed)
        _ = s.update(SafetyInputs(time: 2, stopRequested: true))
        #expect(level(&s, from: 2.01, ticks: 100) == .failsafe)
    }

    @Test func neverArmsWithoutAutoArm() {
        var s = ArmingSupervisor(settings: SafetySettings(autoArm: false))
        #expect(level(&s, from: 0, ticks: 500) == .disarmed)
    }
}
