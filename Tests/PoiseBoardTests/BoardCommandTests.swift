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
