import Foundation
import Testing

/// `poise merge-parameters OVERLAY CONFIG`, run as a user runs it: the parameters stored on the
/// board written into the YAML in place, a conflict refused with the file's line, a bad
/// overlay refused with its own line (by `poise run` too).
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote))
struct MergeParametersCommandTests {
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

    static let overlay = """
    # Parameters stored over MAVLink (MAV_CMD_PREFLIGHT_STORAGE) by poise run --config /etc/poise/poise.yaml.
    controller.balance.pitch.kp: 31.5  # was 30.0
    safety.max_tilt_deg: 40.0  # was 45.0
    """ + "\n"

    static func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    static func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "(unreadable)" }

    @Test func mergesInPlaceKeepingCommentsModeAndTheSymbolicLink() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let boards = directory.appending(path: "boards")
        try FileManager.default.createDirectory(at: boards, withIntermediateDirectories: true)
        let target = boards.appending(path: "bench.yaml").path
        try Self.text.write(toFile: target, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target)
        let config = directory.appending(path: "poise.yaml").path
        try FileManager.default.createSymbolicLink(atPath: config, withDestinationPath: "boards/bench.yaml")
        let overlay = directory.appending(path: "parameters.yaml").path
        try Self.overlay.write(toFile: overlay, atomically: false, encoding: .utf8)

        let merged = try poise(["merge-parameters", overlay, config])
        #expect(merged.status == 0, "\(merged.error)")
        #expect(merged.error == "poise: merged 2 parameters into \(config): controller.balance.pitch.kp 30.0 -> 31.5, "
            + "safety.max_tilt_deg 45.0 -> 40.0\n")
        let expected = Self.text.replacingOccurrences(of: "kp: 30", with: "kp: 31.5").replacingOccurrences(of: "max_tilt_deg: 45", with: "max_tilt_deg: 40.0")
        #expect(Self.read(target) == expected)
        #expect(try Self.mode(target) == 0o600)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: config) == "boards/bench.yaml")
        #expect(try FileManager.default.contentsOfDirectory(atPath: boards.path) == ["bench.yaml"])
        #expect(Self.read(overlay) == Self.overlay)  // kept without --clear

        // Again: nothing to write; --clear removes the overlay.
        let again = try poise(["merge-parameters", overlay, config, "--clear"])
        #expect(again.status == 0, "\(again.error)")
        #expect(again.error == "poise: \(config) already has every value of \(overlay)\npoise: removed \(overlay)\n")
        #expect(Self.read(target) == expected)
        #expect(!FileManager.default.fileExists(atPath: overlay))
    }

    /// The file's kp changed after 31.5 was stored over 30: nothing is written, the key is
    /// named at the file's line; --force writes the stored value.
    @Test func aKeyTheFileChangedSinceIsAConflict() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appending(path: "robot.yaml").path
        let edited = Self.text.replacingOccurrences(of: "kp: 30 ", with: "kp: 20 ")
        try edited.write(toFile: config, atomically: false, encoding: .utf8)
        let overlay = directory.appending(path: "parameters.yaml").path
        try Self.overlay.write(toFile: overlay, atomically: false, encoding: .utf8)

        let refused = try poise(["merge-parameters", overlay, config, "--clear"])
        #expect(refused.status == 1)
        #expect(refused.error == "\(config):8: controller.balance.pitch.kp: the file has 20.0, changed since 31.5 was stored over 30.0\n"
            + "poise: nothing merged: \(config) changed since these were stored; edit it or the overlay, or merge with --force\n")
        #expect(Self.read(config) == edited)
        #expect(FileManager.default.fileExists(atPath: overlay))

        let forced = try poise(["merge-parameters", overlay, config, "--force"])
        #expect(forced.status == 0, "\(forced.error)")
        #expect(Self.read(config) == edited.replacingOccurrences(of: "kp: 20", with: "kp: 31.5")
            .replacingOccurrences(of: "max_tilt_deg: 45", with: "max_tilt_deg: 40.0"))
    }

    /// An overlay edited by hand into something wrong: refused with its line, by the merge and
    /// by `poise run` (which starts nothing).
    @Test func aBadOverlayIsRefusedWithItsLine() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appending(path: "robot.yaml").path
        try Self.text.write(toFile: config, atomically: false, encoding: .utf8)
        let overlay = directory.appending(path: "parameters.yaml").path
        try "# stored\ncontroller.balance.pitch.kp: 31.5\nsafety.max_tilt_deg: 500\n".write(toFile: overlay, atomically: false, encoding: .utf8)

        let merge = try poise(["merge-parameters", overlay, config])
        #expect(merge.status == 1)
        #expect(merge.error.hasPrefix("\(overlay):3: safety.max_tilt_deg: `500.0` is out of range (allowed: "), "\(merge.error)")
        #expect(Self.read(config) == Self.text)

        let run = try poise(["run", "--config", config, "--state-dir", directory.path, "--duration", "0.1", "--quiet"])
        #expect(run.status == 1)
        #expect(run.error.hasPrefix("\(overlay):3: safety.max_tilt_deg: `500.0` is out of range (allowed: "), "\(run.error)")
        #expect(run.error.contains("poise: \(overlay): stored parameters refused; fix or remove the file, or merge it (poise merge-parameters)"))

        // Fixed, the run applies it and says so.
        try "# stored\ncontroller.balance.pitch.kp: 31.5  # was 30.0\n".write(toFile: overlay, atomically: false, encoding: .utf8)
        let good = try poise(["run", "--config", config, "--state-dir", directory.path, "--duration", "0.1", "--quiet"])
        #expect(good.status == 0, "\(good.error)")
        #expect(good.error.contains("poise: \(config): stored parameters applied from \(overlay): controller.balance.pitch.kp 31.5"), "\(good.error)")
    }

    /// SIGHUP reads the file and the overlay again: a stored value written meanwhile is applied
    /// and named; a bad overlay changes nothing and is named with its line.
    @Test func sighupReadsTheOverlayAgain() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appending(path: "robot.yaml")
        try String(contentsOf: repositoryRoot.appending(path: "configs/sim-balancing-robot.yaml"), encoding: .utf8)
            .write(to: config, atomically: true, encoding: .utf8)
        let overlay = directory.appending(path: "parameters.yaml").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: poisePath)
        process.arguments = ["run", "--config", config.path, "--state-dir", directory.path, "--duration", "30"]
        let stderr = try process.runWritingStandardError(into: directory)
        func waitFor(_ text: String) -> Bool {
            for _ in 0 ..< 200 { if stderr().contains(text) { return true }; usleep(50_000) }
            return false
        }
        #expect(waitFor("armed — level"))
        try "controller.balance.pitch.kp: 7  # was 30.0\n".write(toFile: overlay, atomically: true, encoding: .utf8)
        kill(process.processIdentifier, SIGHUP)
        #expect(waitFor("robot.yaml with \(overlay) (controller.balance.pitch.kp 7.0) applied (gains, limits, output mappings)"), "\(stderr())")
        try "# stored\ncontroller.balance.pitch.kp: -7\n".write(toFile: overlay, atomically: true, encoding: .utf8)
        kill(process.processIdentifier, SIGHUP)
        #expect(waitFor("not applied, the old values stay"))
        #expect(stderr().contains("\(overlay):2: controller.balance.pitch.kp: `-7.0` is out of range"), "\(stderr())")
        #expect(process.isRunning)
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stderr())")
    }
}
