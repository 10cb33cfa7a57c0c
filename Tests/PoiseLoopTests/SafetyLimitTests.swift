@testable import PoiseLoop
import Foundation
import PoiseControl
import PoiseFlightCore
@testable import PoiseRun
import PoiseThreads
import Testing
import PoiseConfig
@testable import PoiseTelemetry

/// Safety limits from the ground station and SIGHUP alike: while armed a limit may narrow but
/// not widen; the cross-key rules hold for files and PARAM_SET; a disarm works under every arm
/// source; a stored float is the number the ground station showed.
@Suite(.serialized) struct SafetyLimitTests {
    /// A link whose newest record says `armed`, its tick taking every posted setting.
    static func link(armed: Bool, text: String = "safety:\n  max_tilt_deg: 45\n  arm_tilt_deg: 15\n", path: String? = nil)
        throws -> (GroundStationLink, SettingsMailbox<ReloadableSettings>, ManualControlMailbox) {
        let configuration = try PoiseConfiguration.parse(text: text, file: "robot.yaml")
        var record = TickRecord()
        record.armState = armed ? .armed : .disarmed
        let newest = record
        let tuning = SettingsMailbox<ReloadableSettings>()
        let pilot = ManualControlMailbox()
        let link = GroundStationLink(current: CurrentConfiguration(configuration), running: configuration, configPath: path,
                                     tuning: tuning, pilot: pilot, newestRecord: { newest })
        return (link, tuning, pilot)
    }

    static func set(_ link: GroundStationLink, _ tuning: SettingsMailbox<ReloadableSettings>, _ name: String, _ value: Float) -> String? {
        guard let index = link.parameterNames.firstIndex(of: name) else { return "no parameter \(name)" }
        defer { _ = tuning.take() }
        switch link.setParameter(at: index, to: value) {
        case .success: return nil
        case .failure(let refusal): return refusal.reason
        }
    }

    /// Every live safety limit (a number or switch under `safety.`, and the loop's overrun
    /// limit) says which way widens it.
    @Test func everySafetyLimitSaysWhichWayWidensIt() {
        let listed = Set(ConfigSchema.safetyLimits.map(\.path))
        for key in ConfigSchema.keys where key.reload == .live && (key.path.hasPrefix("safety.") || key.path == "loop.overrun_limit") {
            switch key.type {
            case .number, .integer, .boolean: #expect(listed.contains(key.path), "\(key.path)")
            default: break
            }
        }
        for path in listed { #expect(ConfigSchema.key(path) != nil, "\(path)") }
    }

    @Test func whileArmedWideningIsRefusedAndNarrowingTaken() throws {
        let (link, tuning, _) = try Self.link(armed: true)
        #expect(Self.set(link, tuning, "SAFE_MAX_TILT", 180) == "safety.max_tilt_deg 45 -> 180 widens a safety limit while armed; disarm first")
        #expect(Self.set(link, tuning, "SAFE_STALL", 10000)?.contains("safety.stall_ms") == true)
        #expect(Self.set(link, tuning, "SAFE_SNS_TMO", 10000)?.contains("safety.sensor_timeout_ms") == true)
        #expect(Self.set(link, tuning, "LOOP_OVR_LIM", 1000)?.contains("loop.overrun_limit") == true)
        #expect(Self.set(link, tuning, "SAFE_ARM_HOLD", 0)?.contains("safety.arm_hold_s") == true)
        #expect(Self.set(link, tuning, "SAFE_MAX_TILT", 30) == nil)   // narrower: taken
        #expect(Self.set(link, tuning, "BAL_PIT_P", 31.5) == nil)     // no limit: taken
        let (disarmed, disarmedTuning, _) = try Self.link(armed: false)
        #expect(Self.set(disarmed, disarmedTuning, "SAFE_MAX_TILT", 90) == nil)
    }

    /// Arm tilt above max tilt: refused in a file and over PARAM_SET alike.
    @Test func armTiltAboveMaxTiltIsRefusedInFilesAndOverTheLink() throws {
        #expect { try PoiseConfiguration.parse(text: "safety:\n  max_tilt_deg: 45\n  arm_tilt_deg: 60\n", file: "f.yaml") } throws: {
            "\($0)".contains("safety.arm_tilt_deg (60.0°) is above safety.max_tilt_deg (45.0°)")
        }
        let (link, tuning, _) = try Self.link(armed: false)
        #expect(Self.set(link, tuning, "SAFE_ARM_TILT", 60)?.contains("is above safety.max_tilt_deg") == true)
        #expect(Self.set(link, tuning, "SAFE_MAX_TILT", 10)?.contains("is above safety.max_tilt_deg") == true)
        #expect(Self.set(link, tuning, "SAFE_ARM_TILT", 40) == nil)
    }

    /// A ground station's disarm is accepted under every arm source and reaches the tick.
    @Test func aDisarmIsAcceptedUnderEverySource() throws {
        for source in ["auto", "switch", "command", "gamepad"] {
            let extra = source == "gamepad" ? "input:\n  gamepad:\n    device: /dev/input/event9\n" : ""
            let (link, _, pilot) = try Self.link(armed: true, text: "safety:\n  arm_source: \(source)\n" + extra)
            #expect(link.arm(false).result == .accepted, "\(source)")
            #expect(pilot.takeArmRequest() == .disarm, "\(source)")
        }
    }

    /// PARAM_SET 0.1 is stored as 0.1, not as the float's 0.10000000149011612.
    @Test(arguments: [0.1, 0.3, 31.5, 1e-5, 12345.678, -0.7] as [Float]) func aFloatIsTheNumberTheGroundStationShowed(value: Float) throws {
        let converted = try ParameterTable.configValue(value, for: "controller.balance.pitch.kp").get()
        #expect(converted == .number(Double("\(value)")!))
        if case .number(let d) = converted { #expect(Float(d) == value) }
        #expect(try ParameterTable.configValue(0.1, for: "controller.balance.pitch.kp").get() == .number(0.1))
    }

    /// SIGHUP while armed: a file that widens a limit waits; the ground station is told; a
    /// reload that undoes a PARAM_SET says which.
    @Test func aReloadWhileArmedMayNotWidenAndSaysWhatItReverted() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "poise-safety-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "robot.yaml").path
        let text = "safety:\n  max_tilt_deg: 45\n  arm_tilt_deg: 15\ncontroller:\n  balance:\n    pitch:\n      kp: 30\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let (link, tuning, _) = try Self.link(armed: true, text: text, path: path)
        #expect(Self.set(link, tuning, "BAL_PIT_P", 31.5) == nil)
        let witness = ReloadWitness()
        let sink = try UDPSocket(listeningOn: 0)
        let sender = try TelemetrySender(address: TelemetryAddress(host: "127.0.0.1", port: sink.localPort), settings: .init())
        let view = TelemetryReceiver.TelemetrySettingsView(systemID: 1, componentID: 1, acceptCommands: true, maximumRate: 100)
        let receiver = TelemetryReceiver(sender: sender, station: link, settings: view, key: nil)
        witness.attach(link, receiver)
        try text.replacingOccurrences(of: "max_tilt_deg: 45", with: "max_tilt_deg: 90").write(toFile: path, atomically: true, encoding: .utf8)
        LoopWork.reload(path: path, running: link.running, mailbox: tuning, current: link.current, witness: witness)
        #expect(link.current.configuration.values["safety.max_tilt_deg"] == .number(45))
        #expect(link.current.lastReload.count == 0)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        LoopWork.reload(path: path, running: link.running, mailbox: tuning, current: link.current, witness: witness)
        _ = tuning.take()
        #expect(link.current.lastReload.count == 1)
        let told = receiver.announcements.withLock { $0.map(\.text) }
        #expect(told.count == 2, "\(told)")
        #expect(told.first?.contains("safety.max_tilt_deg 45 -> 90 widens a safety limit while armed") == true, "\(told)")
        #expect(told.last == "SIGHUP reverted 1 change set over MAVLink, not stored: BAL_PIT_P 31.5 -> 30.0", "\(told)")
    }

    /// Without a telemetry link the reload still knows the loop is armed (its newest record,
    /// handed over every tick), so a widening file waits there too.
    @Test func withoutALinkAReloadWhileArmedStillMayNotWiden() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "poise-safety-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "robot.yaml").path
        let text = "safety:\n  max_tilt_deg: 45\n  arm_tilt_deg: 15\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let (link, tuning, _) = try Self.link(armed: true, text: text, path: path)
        let newest = TripleBuffer<TickRecord>(initial: TickRecord())
        var record = TickRecord()
        record.armState = .armed
        newest.publish(record)
        let witness = ReloadWitness(newest: newest)
        #expect(witness.isArmed)
        try text.replacingOccurrences(of: "max_tilt_deg: 45", with: "max_tilt_deg: 90").write(toFile: path, atomically: true, encoding: .utf8)
        LoopWork.reload(path: path, running: link.running, mailbox: tuning, current: link.current, witness: witness)
        #expect(link.current.configuration.values["safety.max_tilt_deg"] == .number(45))
        record.armState = .disarmed
        newest.publish(record)
        LoopWork.reload(path: path, running: link.running, mailbox: tuning, current: link.current, witness: witness)
        #expect(link.current.configuration.values["safety.max_tilt_deg"] == .number(90))
    }
}
