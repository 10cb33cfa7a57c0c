import Foundation
import Testing

/// What `poise run`, `record` and `simulate` say on standard error, and when they fail.
@Suite(.serialized) struct LoopMessagesTests {
    @Test(arguments: [["run"], ["record", "r.csv"]])
    func statisticsIntoAMissingFolderFailBeforeTheRun(_ command: [String]) throws {
        let directory = try temporaryDirectory()
        let stats = directory.appending(path: "no/such/folder/s.json").path
        let arguments = command.map { $0.hasSuffix(".csv") ? directory.appending(path: $0).path : $0 }
        let run = try poise(arguments + ["--duration", "30", "--stats-json", stats])
        #expect(run.status == 1)
        #expect(run.error.hasPrefix("poise: \(stats): cannot create: No such file or directory"), "\(run.error)")
        // Nothing ran: no banner, no transitions, no summary.
        #expect(!run.error.contains("Ctrl-C stops") && !run.error.contains("finished after"), "\(run.error)")
    }

    /// The long runs that end in a plot: a folder that is not there fails before the run,
    /// and a plot that is written says where.
    @Test(arguments: [["simulate", "--duration", "1"], ["simulate", "--trials", "2", "--duration", "1"],
                      ["tune", "--config", "configs/sim-balancing-robot.yaml"]])
    func aPlotIntoAMissingFolderFailsBeforeTheRun(_ command: [String]) throws {
        let directory = try temporaryDirectory()
        let arguments = command.map { $0.hasPrefix("configs/") ? repositoryRoot.appending(path: $0).path : $0 }
        let plot = directory.appending(path: "no/such/folder/p.svg").path
        let run = try poise(arguments + ["--plot", plot])
        #expect(run.status == 1)
        #expect(run.text.isEmpty)
        #expect(run.error.hasPrefix("poise: \(plot): cannot create: No such file or directory"), "\(run.error)")
        #expect(!run.error.contains("trial") && !run.error.contains("simulated s"), "\(run.error)")
    }

    /// Ctrl-C before any Monte-Carlo trial finished, or during a tuning: no report, an earlier
    /// plot of the same name left as it was and no temporary file behind (a Monte-Carlo run
    /// with trials finished reports them PARTIAL: MonteCarloReadabilityTests). The signal is sent before the command
    /// listens (blocked and pending from its start), so the test holds on any machine: how long
    /// the run would take does not matter. (The signals are taken by a watcher with sigwait,
    /// so they arrive even here, where the test runner ignores SIGINT.)
    @Test(arguments: [["simulate", "--trials", "400", "--duration", "60", "--quiet"],
                      ["tune", "--config", "configs/sim-quad-x.yaml"]])
    func anInterruptedLongRunLeavesThePlotAsItWas(_ command: [String]) throws {
        let directory = try temporaryDirectory()
        let plot = directory.appending(path: "p.svg").path
        try "earlier plot\n".write(toFile: plot, atomically: true, encoding: .utf8)
        let arguments = command.map { $0.hasPrefix("configs/") ? repositoryRoot.appending(path: $0).path : $0 } + ["--plot", plot]
        #expect(try poiseInterruptedAtStart(arguments) == 130)
        #expect(try String(contentsOfFile: plot, encoding: .utf8) == "earlier plot\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["p.svg"])
    }

    @Test func simulatePlotsSayWhereTheyWent() throws {
        let directory = try temporaryDirectory()
        let plot = directory.appending(path: "p.svg").path
        let single = try poise(["simulate", "--duration", "1", "--quiet", "--plot", plot])
        #expect(single.status == 0)
        #expect(single.error.hasPrefix("poise: wrote ") && single.error.contains(" panels to \(plot)\n"), "\(single.error)")
        #expect(!single.text.contains("wrote"))
        let trials = try poise(["simulate", "--trials", "2", "--duration", "1", "--quiet", "--plot", plot])
        #expect(trials.status == 0)
        #expect(trials.error == "poise: wrote the 2 trials' outcomes to \(plot)\n", "\(trials.error)")
        #expect(try String(contentsOfFile: plot, encoding: .utf8).contains("<svg"))
    }

    @Test func aNormalEndSaysStoppedAndTheBannerReadsWell() throws {
        let run = try poise(["run", "--duration", "1"])
        #expect(run.status == 0, "\(run.error)")
        let lines = run.error.split(separator: "\n").map(String.init)
        #expect(lines.first == "poise: built-in configs/sim-balancing-robot.yaml: balance controller, poise filter, 1000 Hz on the simulated board; Ctrl-C stops", "\(run.error)")
        #expect(lines.contains { $0.hasPrefix("poise: ") && $0.hasSuffix(" s: stopped") }, "\(run.error)")
        #expect(!run.error.contains("stop requested"))
        #expect(!run.error.contains("failsafe"))
        let record = try poise(["record", try temporaryDirectory().appending(path: "r.csv").path, "--duration", "0.5"])
        #expect(record.status == 0, "\(record.error)")
        #expect(record.error.contains(": no controller, poise filter, "), "\(record.error)")
    }

    @Test func aLinuxBoardIsNamedByItsBus() throws {
        let directory = try temporaryDirectory()
        let config = directory.appending(path: "linux.yaml").path
        try "board:\n  kind: linux\n  i2c_bus: /dev/i2c-99\ncontroller:\n  kind: none\n".write(toFile: config, atomically: true, encoding: .utf8)
        let run = try poise(["run", "--config", config, "--duration", "1"])
        #expect(run.status == 1)
        #expect(run.error.contains(": no controller, poise filter, 200 Hz on /dev/i2c-99; Ctrl-C stops"), "\(run.error)")
        #expect(!run.error.contains("on the /dev"))
    }

    @Test func afterAFallTheMessagesSayWhyItDoesNotArmAgain() throws {
        // A gust tips the simulated quadrotor over its 45° limit; the stand leaves it tilted
        // beyond the 10° within which it may arm again, so it stays disarmed to the end.
        let directory = try temporaryDirectory()
        let config = directory.appending(path: "gust.yaml").path
        let original = try String(contentsOf: repositoryRoot.appending(path: "configs/sim-quad-x.yaml"), encoding: .utf8)
        let gusty = original.replacingOccurrences(of: "  gust_torque: 0.015", with: "  gust_torque: 0.5 #")
        #expect(gusty != original)
        try gusty.write(toFile: config, atomically: true, encoding: .utf8)
        let run = try poise(["simulate", "--config", config, "--duration", "20"])
        #expect(run.status == 0, "\(run.error)")
        let lines = run.error.split(separator: "\n").filter { $0.hasPrefix("poise: ") }
        #expect(lines.count == 4, "\(run.error)")
        #expect(lines.contains { $0.hasSuffix(" s: armed — level, sensor healthy and filter initialised") })
        #expect(lines.contains { $0.contains(" s: failsafe — tilt ") && $0.hasSuffix("° beyond 45° (safety.max_tilt_deg)") }, "\(run.error)")
        #expect(lines.contains { $0.contains(" s: disarmed — fault cleared; arms again once level within 10° (safety.arm_tilt_deg) for 0.5 s (safety.arm_hold_s); tilt now ") }, "\(run.error)")
        #expect(lines.last?.hasSuffix(" s: stopped") == true)
    }
}
