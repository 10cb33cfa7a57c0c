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

    /// An estimate lost to clipping, a stall or a failsafe (`notConverged`) holds arming back,
    /// automatic or by the switch, and the hold time counts from when it is established again.
    /// A gamepad arms only on a request: never by itself, whatever `autoArm` says.
    @Test func aGamepadSourceNeverArmsByItself() {
        var s = ArmingSupervisor(settings: SafetySettings(armHoldTime: 0.1, autoArm: true, armSource: .gamepad))
        #expect(level(&s, from: 0, ticks: 500) == .disarmed)
        #expect(s.lastEvent == nil)
    }

    @Test func anUnestablishedAttitudeHoldsArmingBack() {
        var s = ArmingSupervisor(settings: settings)
        for i in 0..<100 { #expect(s.update(SafetyInputs(time: Double(i) * 0.01, attitudeConverged: false)) == .disarmed) }
        #expect(level(&s, from: 1, ticks: 10) == .disarmed)
        #expect(level(&s, from: 1.1, ticks: 2) == .armed)
        var bySwitch = ArmingSupervisor(settings: SafetySettings(armHoldTime: 0.1, armSource: .armSwitch))
        for i in 0..<50 { _ = bySwitch.update(SafetyInputs(time: Double(i) * 0.01, attitudeConverged: false)) }
        #expect(bySwitch.update(SafetyInputs(time: 0.5, attitudeConverged: false, armSwitch: true)) == .disarmed)
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
        (SafetyInputs(time: 1, stalled: true), .stall),
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

    @Test func rearmsAfterAClearingFaultWhenLevelButNotAfterAStop() {
        var rearming = settings
        rearming.rearm = .whenLevel
        var s = ArmingSupervisor(settings: rearming)
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

    @Test(arguments: [SafetyInputs(time: 1, tilt: 0.6), SafetyInputs(time: 1, stalled: true),
                      SafetyInputs(time: 1, overrunStreak: 3)])
    func neverRearmsByItselfAfterAFailsafeByDefault(fault: SafetyInputs) {
        var s = ArmingSupervisor(settings: settings)
        #expect(s.settings.rearm == .never)
        #expect(level(&s, from: 0, ticks: 50) == .armed)
        #expect(s.update(fault) == .failsafe)
        #expect(s.update(SafetyInputs(time: 1.01)) == .disarmed)
        #expect(level(&s, from: 1.02, ticks: 1000) == .disarmed)
    }

    /// Healthy, level ticks at 100 Hz with the switch at `on`.
    func level(_ s: inout ArmingSupervisor, from start: Double, ticks count: Int, switchOn on: Bool) -> ArmState {
        var state = s.state
        for i in 0..<count { state = s.update(SafetyInputs(time: start + Double(i) * 0.01, armSwitch: on)) }
        return state
    }

    var switchSettings: SafetySettings {
        var s = settings
        s.armSource = .armSwitch
        return s
    }

    @Test func theSwitchArmsOnlyOnItsOffToOnEdgeWhileTheConditionsHold() {
        var s = ArmingSupervisor(settings: switchSettings)
        // On from start: never an edge, never armed.
        #expect(level(&s, from: 0, ticks: 100, switchOn: true) == .disarmed)
        // Cycled: armed in the tick it goes on.
        #expect(level(&s, from: 1, ticks: 2, switchOn: false) == .disarmed)
        #expect(s.update(SafetyInputs(time: 1.02, armSwitch: true)) == .armed)
        #expect(s.reason == .switchArmed)
        // Off disarms at once.
        #expect(s.update(SafetyInputs(time: 1.03, armSwitch: false)) == .disarmed)
        #expect(s.reason == .switchOff)
    }

    @Test func aSwitchTurnedOnBeforeTheConditionsHoldMustBeCycled() {
        var s = ArmingSupervisor(settings: switchSettings)
        _ = s.update(SafetyInputs(time: 0, armSwitch: false))
        // On while the filter is not ready: no arming, then or later.
        #expect(s.update(SafetyInputs(time: 0.01, estimatorReady: false, armSwitch: true)) == .disarmed)
        #expect(level(&s, from: 0.02, ticks: 200, switchOn: true) == .disarmed)
        _ = s.update(SafetyInputs(time: 3, armSwitch: false))
        #expect(s.update(SafetyInputs(time: 3.01, armSwitch: true)) == .armed)
    }

    @Test func afterAFailsafeTheSwitchMustBeCycled() {
        var s = ArmingSupervisor(settings: switchSettings)
        _ = level(&s, from: 0, ticks: 50, switchOn: false)
        #expect(s.update(SafetyInputs(time: 0.5, armSwitch: true)) == .armed)
        #expect(s.update(SafetyInputs(time: 0.51, tilt: 0.6, armSwitch: true)) == .failsafe)
        // Fault gone, switch still on: stays disarmed.
        #expect(level(&s, from: 0.52, ticks: 300, switchOn: true) == .disarmed)
        _ = s.update(SafetyInputs(time: 4, armSwitch: false))
        #expect(s.update(SafetyInputs(time: 4.01, armSwitch: true)) == .armed)
    }

    @Test func withAutoArmTheSwitchIsIgnored() {
        var s = ArmingSupervisor(settings: settings)
        #expect(level(&s, from: 0, ticks: 50, switchOn: false) == .armed)
    }
}

/// `safety.arm_source: command`: the ground station's arm command arms only while the
/// conditions hold; its disarm command disarms; setpoints lost while armed fail safe.
@Suite struct CommandArmingTests {
    let settings = SafetySettings(maxTilt: 0.5, armTilt: 0.2, armHoldTime: 0.1, sensorTimeout: 0.02, armSource: .command)

    func inputs(_ time: Double, tilt: Float = 0, command: ArmCommand = .none, setpointLost: Bool = false) -> SafetyInputs {
        var i = SafetyInputs(time: time, tilt: tilt)
        i.armCommand = command
        i.setpointLost = setpointLost
        return i
    }

    @Test func armsOnlyByCommandAndOnlyWhenLevel() {
        var s = ArmingSupervisor(settings: settings)
        for k in 0 ..< 50 { #expect(s.update(inputs(Double(k) * 0.01)) == .disarmed) }   // never by itself
        #expect(s.update(inputs(0.5, tilt: 0.3, command: .arm)) == .disarmed)              // tilted: refused
        // Level again: the request waits until the conditions have held for arm_hold_s.
        #expect(s.update(inputs(0.51, command: .arm)) == .disarmed && s.armPending)
        #expect(s.update(inputs(0.6)) == .disarmed)
        #expect(s.update(inputs(0.62)) == .armed)
        #expect(s.reason == .commandArmed)
        #expect(s.update(inputs(0.63)) == .armed)
        #expect(s.update(inputs(0.64, command: .disarm)) == .disarmed)
        #expect(s.reason == .commandDisarmed)
        // A request whose conditions break before the hold is dropped.
        #expect(s.update(inputs(0.65, command: .arm)) == .disarmed && s.armPending)
        #expect(s.update(inputs(0.66, tilt: 0.3)) == .disarmed && !s.armPending)
        for k in 67 ..< 100 { #expect(s.update(inputs(Double(k) * 0.01)) == .disarmed) }
    }

    /// A ground station's disarm works under every source, and holds until that source arms
    /// again by its own rule: automatic arming not again in this run, the switch only cycled.
    @Test func aDisarmWorksUnderEverySourceAndHolds() {
        var auto = ArmingSupervisor(settings: SafetySettings(armHoldTime: 0.1, armSource: .automatic))
        for k in 0 ..< 20 { _ = auto.update(inputs(Double(k) * 0.01)) }
        #expect(auto.state == .armed)
        #expect(auto.update(inputs(0.2, command: .disarm)) == .disarmed && auto.reason == .commandDisarmed && auto.disarmHeld)
        for k in 21 ..< 300 { #expect(auto.update(inputs(Double(k) * 0.01)) == .disarmed) }
        var bySwitch = ArmingSupervisor(settings: SafetySettings(armHoldTime: 0.1, armSource: .armSwitch))
        func switched(_ t: Double, on: Bool, command: ArmCommand = .none) -> ArmState {
            var i = SafetyInputs(time: t, armSwitch: on)
            i.armCommand = command
            return bySwitch.update(i)
        }
        for k in 0 ..< 20 { _ = switched(Double(k) * 0.01, on: false) }
        #expect(switched(0.2, on: true) == .armed)
        #expect(switched(0.21, on: true, command: .disarm) == .disarmed)
        for k in 22 ..< 100 { #expect(switched(Double(k) * 0.01, on: true) == .disarmed) }   // still on: holds
        #expect(switched(1.0, on: false) == .disarmed)
        #expect(switched(1.01, on: true) == .armed)   // cycled
    }

    /// Arming from the gamepad says so, not "command", in the log and the STATUSTEXT.
    @Test func gamepadArmingReportsTheGamepad() {
        var pad = settings
        pad.armSource = .gamepad
        var s = ArmingSupervisor(settings: pad)
        _ = s.update(inputs(0))
        #expect(s.update(inputs(0.01, command: .arm)) == .disarmed)
        #expect(s.update(inputs(0.1)) == .armed)
        #expect(s.reason == .gamepadArmed && String(describing: s.reason.text).contains("gamepad"))
        #expect(s.update(inputs(0.11, command: .disarm)) == .disarmed)
        #expect(s.reason == .gamepadDisarmed)
    }

    @Test func lostSetpointsFailSafeWhileArmed() {
        var s = ArmingSupervisor(settings: settings)
        _ = s.update(inputs(0))
        #expect(s.update(inputs(0.01, setpointLost: true)) == .disarmed)   // disarmed: nothing to do
        #expect(s.update(inputs(0.02, command: .arm)) == .disarmed)
        #expect(s.update(inputs(0.1)) == .armed)
        #expect(s.update(inputs(0.11, setpointLost: true)) == .failsafe)
        #expect(s.reason == .setpointLost)
        #expect(s.update(inputs(0.12)) == .disarmed)   // cleared once they come again
    }

    @Test func otherSourcesIgnoreCommands() {
        var s = ArmingSupervisor(settings: SafetySettings(armHoldTime: 10, autoArm: false))
        _ = s.update(SafetyInputs(time: 0))
        #expect(s.update(inputs(0.01, command: .arm)) == .disarmed)
    }
}
