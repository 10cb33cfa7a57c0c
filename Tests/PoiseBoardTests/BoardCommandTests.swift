@testable import PoiseBoard
import Testing

/// `poise-board`'s command line: what it accepts and the usage errors (exit 64).
@Suite struct BoardCommandTests {
    @Test func replayArguments() throws {
        #expect(try BoardCommand.parse(["replay", "t.csv"]) == .replay(trace: "t.csv", output: "-"))
        #expect(try BoardCommand.parse(["replay", "t.csv", "-o", "out.csv"]) == .replay(trace: "t.csv", output: "out.csv"))
        #expect(try BoardCommand.parse(["replay", "--output", "out.csv", "t.csv"]) == .replay(trace: "t.csv", output: "out.csv"))
        #expect(try BoardCommand.parse(["replay", "--output=o.csv", "-", "--quiet"]) == .replay(trace: "-", output: "o.csv"))
        #expect(try BoardCommand.parse(["replay", "r.ptrace", "--config", "r.pcfg"]) == .replay(trace: "r.ptrace", output: "-", config: "r.pcfg"))
        #expect(try BoardCommand.parse(["replay", "--config=r.pcfg", "r.ptrace", "-o", "o.csv"]) == .replay(trace: "r.ptrace", output: "o.csv", config: "r.pcfg"))
        #expect(try BoardCommand.parse(["--help"]) == .help)
        #expect(try BoardCommand.parse(["replay", "-h"]) == .help)
        #expect(try BoardCommand.parse(["probe"]) == .probe(.init()))
        #expect(try BoardCommand.parse(["probe", "--bus", "/dev/i2c-3", "--address", "0x69", "--samples=2", "--config", "r.pcfg"])
                == .probe(.init(config: "r.pcfg", bus: "/dev/i2c-3", address: 0x69, samples: 2)))
        #expect(try BoardCommand.parse(["probe", "--address", "104"]) == .probe(.init(address: 0x68)))
        #expect(try BoardCommand.parse(["safe", "--config", "r.pcfg"]) == .safe(config: "r.pcfg"))
        var run = BoardCommand.RunRequest(config: "r.pcfg")
        #expect(try BoardCommand.parse(["run", "--config", "r.pcfg"]) == .run(run))
        run.record = "r.ptrace"
        run.overwrite = true
        run.duration = 2.5
        run.telemetry = "127.0.0.1:14550"
        run.stateDirectory = "/var/lib/poise"
        run.statsJSON = "s.json"
        run.quiet = true
        #expect(try BoardCommand.parse(["run", "--config=r.pcfg", "--record", "r.ptrace", "--overwrite", "--duration", "2.5",
                                        "--telemetry", "127.0.0.1:14550", "--state-dir", "/var/lib/poise", "--stats-json", "s.json",
                                        "--quiet"]) == .run(run))
    }

    @Test(arguments: [
        ([], "missing command"),
        (["play", "t.csv"], "unknown command 'play'"),
        (["replay"], "missing TRACE"),
        (["replay", "t.csv", "u.csv"], "unexpected argument 'u.csv'"),
        (["replay", "t.csv", "--filter", "mekf"], "unknown option '--filter'"),
        (["replay", "t.csv", "-o"], "missing value for '-o'"),
        (["replay", "t.csv", "--output="], "empty output name"),
        (["replay", "t.csv", "--config"], "missing value for '--config'"),
        (["replay", "t.csv", "--config="], "empty --config name"),
        (["probe", "--address", "0x80"], "--address needs 0x03…0x77 (0x68 AD0 low, 0x69 high), not '0x80'"),
        (["probe", "--samples", "-1"], "--samples needs a number ≥ 0, not '-1'"),
        (["probe", "extra"], "unexpected argument 'extra'"),
        (["safe"], "missing --config COMPILED"),
        (["run"], "missing --config COMPILED"),
        (["run", "--config", "r.pcfg", "--overwrite"], "--overwrite needs --record FILE"),
        (["run", "--config", "r.pcfg", "--duration", "0"], "--duration needs a number > 0"),
        (["run", "--config", "r.pcfg", "--duration", "nan"], "--duration needs a number ≥ 0, not 'nan'"),
        (["run", "--config", "r.pcfg", "--record="], "empty --record name"),
    ])
    func usageErrors(arguments: [String], message: String) {
        #expect(throws: BoardCommand.UsageError(message: message)) { try BoardCommand.parse(arguments) }
    }

    /// (A replay's statuses are scripts/check-board's: running one here would install the
    /// signal handlers and take the trace warnings of the whole test process.)
    @Test func aUsageErrorExits64() {
        #expect(BoardCommand.run(["replay"]) == 64)
        #expect(BoardCommand.run(["replay", "a.csv", "b.csv"]) == 64)
    }
}
