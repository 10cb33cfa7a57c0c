@testable import PoiseLoop
import PoiseFlightCore
@testable import PoiseRun
import PoiseThreads
import Testing
import PoiseConfig

/// Reloadability is a property of the binding (``ConfigKey/reload``), read by SIGHUP and by the
/// ground station's PARAM_SET alike: nothing else decides which key a running loop takes.
struct ReloadabilityTests {
    /// The rule as string prefixes in LoopRunner.swift, before the bindings said it: the
    /// bindings give the same answer for every key.
    static func prefixRule(_ path: String) -> Bool {
        if path == "controller.quad.setpoint_file" || path == "controller.quad.throttle" { return false }
        if path == "controller.balance.setpoint_file" { return false }
        if path.hasPrefix("controller.balance.encoders.") { return path == "controller.balance.encoders.counts_per_revolution" }
        if path.hasPrefix("controller.balance.") || path.hasPrefix("controller.quad.") { return true }
        if path.hasPrefix("safety.") { return path != "safety.arm_source" && !path.hasPrefix("safety.switch.") }
        return path == "loop.overrun_limit" || path == "outputs.channels"
    }

    @Test func theBindingsSayWhatThePrefixRulesSaid() {
        for key in ConfigSchema.keys {
            #expect((key.reload == .live) == Self.prefixRule(key.path), "\(key.path)")
        }
    }

    @Test func aKeyActingOutsideTheTickIsNeverLive() {
        for key in ConfigSchema.keys where key.actsOutsideTheTick != nil {
            #expect(key.reload == .restart, "\(key.path)")
        }
    }

    /// The output channels' hardware is what their element bindings mark restart-only.
    @Test func anOutputChannelsHardwareIsRestartOnlyItsMappingLive() throws {
        guard case .list(let elementKeys)? = ConfigSchema.key("outputs.channels")?.type else { Issue.record("no list"); return }
        let restart = Set(elementKeys.filter { $0.reload == .restart }.map(\.path))
        #expect(restart == ["kind", "chip", "line", "channel", "active_low", "drive", "safe_value", "period_us", "polarity"])
    }

    static let channels = """
        outputs:
          channels:
            - {name: m, kind: pwm, source: motor1, chip: "0", channel: 1, period_us: 2500, pulse_min_us: 1000, pulse_max_us: 2000}
        """

    /// A changed restart-only key is refused with its position and keeps its running value in
    /// what the tick is handed; a live one is taken.
    @Test func aRefusedKeyKeepsItsRunningValueAndTheRestIsPosted() throws {
        let running = try PoiseConfiguration.parse(text: "controller:\n  kind: quad_x\n" + Self.channels, file: "a")
        let fresh = try PoiseConfiguration.parse(text: "controller:\n  kind: balance\n  balance:\n    pitch:\n      kp: 3\n"
                                                 + "safety:\n  max_tilt_deg: 30\n  arm_source: command\n"
                                                 + Self.channels.replacingOccurrences(of: "channel: 1", with: "channel: 2"), file: "b")
        let mailbox = SettingsMailbox<ReloadableSettings>()
        let (refused, posted) = LoopWork.apply(fresh, running: running, mailbox: mailbox) { "b:\($0)" }
        #expect(posted)
        #expect(refused == ["b:controller.kind: controller.kind not applied: restart to change",
                            "b:safety.arm_source: safety.arm_source not applied: restart to change",
                            "b:outputs.channels: outputs.channels hardware (kind, chip, line, channel) not applied: restart to change; "
                                + "the running channels keep their mappings"])
        let tuning = try #require(mailbox.take())
        guard case .quad = tuning.controller else { Issue.record("the running controller's kind is kept"); return }
        #expect(tuning.safety.armSource == ReloadableSettings(tuning: running).safety.armSource)
        #expect(tuning.safety.maxTilt == ReloadableSettings(tuning: fresh).safety.maxTilt)
    }

    @Test func aChannelsMappingIsTaken() throws {
        let running = try PoiseConfiguration.parse(text: Self.channels, file: "a")
        let fresh = try PoiseConfiguration.parse(text: Self.channels.replacingOccurrences(of: "2000", with: "1900"), file: "b")
        let mailbox = SettingsMailbox<ReloadableSettings>()
        let (refused, posted) = LoopWork.apply(fresh, running: running, mailbox: mailbox) { "b:\($0)" }
        #expect(posted && refused.isEmpty, "\(refused)")
    }

    /// PARAM_SET of a name that is no parameter: the binding says why.
    @Test func aNameThatIsNoParameterIsRefusedForWhatItsBindingSays() {
        let link = GroundStationLink(current: CurrentConfiguration(.default), running: .default, configPath: nil,
                                     tuning: SettingsMailbox(), pilot: ManualControlMailbox(), newestRecord: { nil })
        #expect(link.unknownParameter("LOOP_RT") == "loop.rate_hz not applied: restart to change")
        #expect(link.unknownParameter("SAFE_REARM") == "safety.rearm is not a number: change it in the file and reload (SIGHUP)")
        #expect(link.unknownParameter("NO_SUCH_NAME") == nil)
        #expect(link.table.index(ofPath: "controller.balance.pitch.kp") != nil)
    }
}
