@testable import PoiseLoop
import Foundation
import PoiseFlightCore
@testable import PoiseRun
import PoiseThreads
import Testing
import PoiseConfig
import PoiseTelemetry

/// MAV_CMD_PREFLIGHT_STORAGE as the ground station uses it: parameters set over MAVLink, the
/// file edited on disk meanwhile, then stored. Only the keys set over the link reach the file,
/// in place (comments and layout kept), with the file's mode kept and a symbolic link followed.
@Suite(.serialized) struct GroundStationStorageTests {
    static let text = """
    # the bench robot: hand-tuned
    board:
      kind: sim
    controller:
      kind: balance
      balance:
        pitch:
          kp: 30      # from the step test
          kd: 0.5     # by hand
    safety:
      max_tilt_deg: 45
    """ + "\n"

    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "poise-storage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A link as `poise run` makes one, started from `path`.
    static func link(_ path: String) throws -> (GroundStationLink, SettingsMailbox<CoreTuning>) {
        let configuration = try PoiseConfiguration.load(path: path)
        let tuning = SettingsMailbox<CoreTuning>()
        let link = GroundStationLink(current: CurrentConfiguration(configuration), running: configuration, configPath: path,
                                     tuning: tuning, pilot: ManualControlMailbox(), newestRecord: { nil })
        return (link, tuning)
    }

    /// PARAM_SET by name, the tick taking the settings as the loop would.
    static func set(_ name: String, _ value: Float, on link: GroundStationLink, tuning: SettingsMailbox<CoreTuning>) throws {
        let index = try #require(link.parameterNames.firstIndex(of: name))
        let result = link.setParameter(at: index, to: value)
        #expect((try? result.get()) == value, "\(result)")
        _ = tuning.take()
    }

    static func edit(_ path: String, _ old: String, _ new: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(old))
        // Written in place, as an editor with the file open would.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.replacingOccurrences(of: old, with: new).utf8))
        try handle.close()
    }

    static func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "(unreadable)" }

    static func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func onlyTheKeySetOverTheLinkIsWrittenCommentsAndModeKept() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "robot.yaml").path
        try Self.text.write(toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)

        let (link, tuning) = try Self.link(path)
        try Self.set("BAL_PIT_P", 31.5, on: link, tuning: tuning)
        #expect(link.keysChangedOverLink == ["controller.balance.pitch.kp"])
        try Self.edit(path, "kd: 0.5", "kd: 0.75")  // the operator, on disk, never over MAVLink

        #expect(link.storeParameters() == CommandOutcome(.accepted, "1 parameters stored in robot.yaml"))
        let expected = Self.text.replacingOccurrences(of: "kp: 30", with: "kp: 31.5").replacingOccurrences(of: "kd: 0.5", with: "kd: 0.75")
        #expect(Self.read(path) == expected)
        #expect(try Self.mode(path) == 0o600)
        #expect(link.keysChangedOverLink.isEmpty)
        // Nothing set since: nothing to write, and the disk's kd is still not touched.
        #expect(link.storeParameters() == CommandOutcome(.accepted, "parameters already stored in robot.yaml"))
        #expect(Self.read(path) == expected)
    }

    @Test func aSymlinkedConfigsTargetGetsTheValuesAndTheLinkStays() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let real = directory.appending(path: "boards")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        let target = real.appending(path: "bench.yaml").path
        try Self.text.write(toFile: target, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target)
        let path = directory.appending(path: "poise.yaml").path
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "boards/bench.yaml")

        let (link, tuning) = try Self.link(path)
        try Self.set("BAL_PIT_P", 31.5, on: link, tuning: tuning)
        #expect(link.storeParameters().result == .accepted)

        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == "boards/bench.yaml")
        #expect(Self.read(target) == Self.text.replacingOccurrences(of: "kp: 30", with: "kp: 31.5"))
        #expect(try Self.mode(target) == 0o600)
        // No temporary file left beside either.
        #expect(try FileManager.default.contentsOfDirectory(atPath: real.path) == ["bench.yaml"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["boards", "poise.yaml"])
    }

    /// A key set over MAVLink and also edited on disk since the start: neither value is
    /// silently lost; that key is refused by name, the other key set over the link is stored.
    @Test func aKeySetOverTheLinkAndEditedOnDiskIsRefused() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "robot.yaml").path
        try Self.text.write(toFile: path, atomically: false, encoding: .utf8)

        let (link, tuning) = try Self.link(path)
        try Self.set("BAL_PIT_P", 31.5, on: link, tuning: tuning)
        try Self.set("SAFE_MAX_TILT", 40, on: link, tuning: tuning)
        try Self.edit(path, "kp: 30 ", "kp: 20 ")

        let outcome = link.storeParameters()
        #expect(outcome == CommandOutcome(.failed, "BAL_PIT_P not stored: edited in file since start (1 others stored)"))
        #expect((outcome.reason ?? "").utf8.count <= 70)
        let expected = Self.text.replacingOccurrences(of: "kp: 30 ", with: "kp: 20 ").replacingOccurrences(of: "max_tilt_deg: 45", with: "max_tilt_deg: 40.0")
        #expect(Self.read(path) == expected)
        // Refused again until the ground station, told, sets it again: then the link's value is stored.
        #expect(link.keysChangedOverLink == ["controller.balance.pitch.kp"])
        #expect(link.storeParameters().result == .failed)
        #expect(Self.read(path) == expected)
        try Self.set("BAL_PIT_P", 31.5, on: link, tuning: tuning)
        #expect(link.storeParameters() == CommandOutcome(.accepted, "1 parameters stored in robot.yaml"))
        #expect(Self.read(path) == expected.replacingOccurrences(of: "kp: 20", with: "kp: 31.5"))
    }

    /// A reload (SIGHUP) takes the file's edit and undoes the PARAM_SET before it: the file as
    /// reloaded is the new start, so a key set over the link after it is stored, no conflict.
    @Test func afterAReloadTheFileAsReloadedIsTheStart() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "robot.yaml").path
        try Self.text.write(toFile: path, atomically: false, encoding: .utf8)

        let (link, tuning) = try Self.link(path)
        try Self.set("BAL_PIT_D", 0.25, on: link, tuning: tuning)
        try Self.edit(path, "kp: 30 ", "kp: 20 ")
        LoopWork.reload(path: path, running: link.running, mailbox: tuning, current: link.current)
        _ = tuning.take()
        #expect(link.keysChangedOverLink.isEmpty)  // the reload undid BAL_PIT_D = 0.25
        try Self.set("BAL_PIT_P", 31.5, on: link, tuning: tuning)

        #expect(link.storeParameters() == CommandOutcome(.accepted, "1 parameters stored in robot.yaml"))
        #expect(Self.read(path) == Self.text.replacingOccurrences(of: "kp: 30", with: "kp: 31.5"))
    }
}
