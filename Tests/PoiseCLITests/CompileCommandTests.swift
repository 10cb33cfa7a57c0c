import Foundation
import Testing

/// `poise compile` as a user runs it, and the compiled configuration in the replays: the
/// host's `poise replay --config COMPILED` and the board binary's (its host build here;
/// scripts/check-board runs the aarch64 one under qemu) against the YAML route.
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote))
struct CompileCommandTests {
    static let magic = Data("PoiseCfg".utf8)

    /// A 2 s simulated-time recording of `config`.
    func record(_ config: String, in directory: URL) throws -> String {
        let recording = directory.appending(path: "rec.ptrace").path
        let run = try poise(["simulate", "--config", config, "--duration", "2", "--record", recording, "--quiet"])
        #expect(run.status == 0, "\(run.error)")
        return recording
    }

    @Test func compilesAYAMLConfiguration() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appending(path: "robot.pcfg")
        let run = try poise(["compile", repositoryRoot.appending(path: "configs/sim-balancing-robot.yaml").path, "-o", out.path])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.text.isEmpty)
        #expect(run.error.contains("compiled") && run.error.contains("format version 3") && run.error.contains("7 output channels"), "\(run.error)")
        let bytes = try Data(contentsOf: out)
        #expect(bytes.prefix(8) == Self.magic)
        // The same configuration compiles to the same bytes.
        let again = try poise(["compile", repositoryRoot.appending(path: "configs/sim-balancing-robot.yaml").path, "-o", "-"])
        #expect(again.status == 0 && again.output == bytes)
    }

    @Test func refusesWhatItCannotCompile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A configuration with a bad value: the same located message every command gives.
        let bad = directory.appending(path: "bad.yaml")
        try "loop:\n  rate_hz: -5\n".write(to: bad, atomically: true, encoding: .utf8)
        let out = directory.appending(path: "bad.pcfg").path
        let refused = try poise(["compile", bad.path, "-o", out])
        #expect(refused.status == 1)
        #expect(refused.error.contains("bad.yaml:2:"), "\(refused.error)")
        #expect(!FileManager.default.fileExists(atPath: out))
        // A trace that carries no configuration.
        let synth = directory.appending(path: "plain.csv").path
        #expect(try poise(["synth", "--motion", "static", "-o", synth]).status == 0)
        let plain = try poise(["compile", synth, "-o", out])
        #expect(plain.status == 1 && plain.error.contains("carries no configuration"), "\(plain.error)")
        // No output named: a usage error.
        let usage = try poise(["compile", bad.path])
        #expect(usage.status == 64 && usage.error.contains("--output"), "\(usage.error)")
        let missing = try poise(["compile", directory.appending(path: "none.yaml").path, "-o", out])
        #expect(missing.status == 1 && missing.error.contains("none.yaml"), "\(missing.error)")
    }

    @Test func helpSaysWhatItDoes() throws {
        let run = try poise(["compile", "--help"])
        #expect(run.status == 0)
        #expect(run.text.contains("USAGE: poise compile") && run.text.contains("poise-board replay"), "\(run.text)")
    }

    /// For every shipped simulated configuration: a recording replayed on the host with its
    /// compiled configuration, and by the board binary with it, is byte for byte the replay
    /// with the YAML configuration the recording carries.
    @Test(arguments: ["sim-balancing-robot", "sim-balancing-robot-drive", "sim-quad-x"])
    func compiledReplayIsTheYAMLReplay(_ name: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let recording = try record(repositoryRoot.appending(path: "configs/\(name).yaml").path, in: directory)
        let compiled = directory.appending(path: "rec.pcfg").path
        let compile = try poise(["compile", recording, "-o", compiled])
        #expect(compile.status == 0, "\(compile.error)")
        let yaml = try poise(["replay", recording, "--quiet"])
        #expect(yaml.status == 0, "\(yaml.error)")
        #expect(yaml.text.contains("out_"))
        let host = try poise(["replay", recording, "--config", compiled, "--quiet"])
        #expect(host.status == 0, "\(host.error)")
        #expect(host.output == yaml.output)
        let board = try runBuilt(builtProgram("poise-board"), ["replay", recording, "--config", compiled])
        #expect(board.status == 0, "\(board.error)")
        #expect(board.output == yaml.output)
        // The YAML compiled directly gives the same file as the recording's configuration.
        let direct = try poise(["compile", repositoryRoot.appending(path: "configs/\(name).yaml").path, "-o", "-"])
        #expect(direct.output == (try Data(contentsOf: URL(fileURLWithPath: compiled))))
    }

    @Test func theBoardRefusesADamagedFileWithItsOffset() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let recording = try record(repositoryRoot.appending(path: "configs/sim-quad-x.yaml").path, in: directory)
        let compiled = directory.appending(path: "rec.pcfg")
        #expect(try poise(["compile", recording, "-o", compiled.path]).status == 0)
        var bytes = try Data(contentsOf: compiled)
        bytes[40] ^= 0x10
        let damaged = directory.appending(path: "damaged.pcfg")
        try bytes.write(to: damaged)
        let board = try runBuilt(builtProgram("poise-board"), ["replay", recording, "--config", damaged.path])
        #expect(board.status == 1)
        #expect(board.error.hasPrefix("poise-board: \(damaged.path): byte offset \(bytes.count - 4): damaged"), "\(board.error)")
        #expect(board.output.isEmpty)
        let host = try poise(["replay", recording, "--config", damaged.path, "--quiet"])
        #expect(host.status == 1 && host.error.contains("byte offset \(bytes.count - 4)"), "\(host.error)")
        // Cut short.
        let truncated = directory.appending(path: "truncated.pcfg")
        try bytes.prefix(100).write(to: truncated)
        let cut = try runBuilt(builtProgram("poise-board"), ["replay", recording, "--config", truncated.path])
        #expect(cut.status == 1 && cut.error.contains("byte offset 100: truncated"), "\(cut.error)")
        // A recording without --config: the board says how to get one.
        let bare = try runBuilt(builtProgram("poise-board"), ["replay", recording])
        #expect(bare.status == 1 && bare.error.contains("poise compile"), "\(bare.error)")
    }
}
