import Foundation
import Testing

/// `poise-board run` and `poise run` over the same state directory's stored parameters
/// (parameters.yaml): a bad file is refused by both with the same lines, before anything is
/// opened; a good one is applied by both, and both say which keys. (The rig is a bus that does
/// not exist: both stop there.)
struct BoardStoredParametersTests {
    static func setUp(_ overlay: String) throws -> (directory: URL, yaml: String, compiled: String, state: String) {
        let directory = try temporaryDirectory()
        let yaml = directory.appending(path: "robot.yaml").path
        try "board:\n  kind: linux\n  i2c_bus: \(directory.path)/no-i2c\ncontroller:\n  kind: balance\n"
            .write(toFile: yaml, atomically: true, encoding: .utf8)
        let compiled = directory.appending(path: "robot.pcfg").path
        let compile = try poise(["compile", yaml, "-o", compiled])
        #expect(compile.status == 0, "\(compile.error)")
        let state = directory.appending(path: "state").path
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        try overlay.write(toFile: state + "/parameters.yaml", atomically: true, encoding: .utf8)
        return (directory, yaml, compiled, state)
    }

    @Test func aBadFileIsRefusedByBothWithTheSameLines() throws {
        let run = try Self.setUp("controller.balance.pitch.kp: 5000\nloop.rate_hz: 100\nno.such.key: 1\nsafety.auto_arm: 2\n")
        defer { try? FileManager.default.removeItem(at: run.directory) }
        let board = try runBuilt(builtProgram("poise-board"), ["run", "--config", run.compiled, "--state-dir", run.state, "--quiet"])
        let host = try poise(["run", "--config", run.yaml, "--state-dir", run.state, "--quiet"])
        #expect(board.status == 1 && host.status == 1)
        let overlay = run.state + "/parameters.yaml"
        let expected = [
            overlay + ":1: controller.balance.pitch.kp: `5000.0` is out of range (allowed: 0…1000 1/rad)",
            overlay + ":2: loop.rate_hz: not a parameter (only numbers and switches a reload may change are stored on the board)",
            overlay + ":3: no.such.key: unknown key",
            overlay + ":4: safety.auto_arm: expected a boolean, got `2` (allowed: true, false)",
        ]
        func problems(_ text: String, _ program: String) -> [String] {
            text.split(separator: "\n").map { $0.hasPrefix(program + ": ") ? String($0.dropFirst(program.count + 2)) : String($0) }
                .filter { $0.hasPrefix(overlay + ":") && !$0.contains("stored parameters refused") }
        }
        #expect(problems(board.error, "poise-board") == expected, "\(board.error)")
        #expect(problems(host.error, "poise") == expected, "\(host.error)")
        #expect(board.error.contains("stored parameters refused") && !board.error.contains("no-i2c"), "\(board.error)")
    }

    @Test func aGoodFileIsAppliedByBoth() throws {
        let run = try Self.setUp("# stored\ncontroller.balance.pitch.kp: 31.5  # was 30.0\nsafety.max_tilt_deg: 40\n")
        defer { try? FileManager.default.removeItem(at: run.directory) }
        let board = try runBuilt(builtProgram("poise-board"), ["run", "--config", run.compiled, "--state-dir", run.state, "--quiet"])
        let host = try poise(["run", "--config", run.yaml, "--state-dir", run.state, "--quiet"])
        let applied = "stored parameters applied from \(run.state)/parameters.yaml: controller.balance.pitch.kp 31.5, safety.max_tilt_deg 40.0"
        #expect(board.error.contains("poise-board: \(run.compiled): " + applied), "\(board.error)")
        #expect(host.error.contains("poise: \(run.yaml): " + applied), "\(host.error)")
        // Both went on to open the rig (which is not there).
        #expect(board.error.contains("no-i2c") && host.error.contains("no-i2c"), "\(board.error)\n\(host.error)")
    }
}
