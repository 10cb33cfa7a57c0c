import Foundation
import Testing

/// The built-in demo on a busy machine: it asks for real-time priority where that is
/// permitted and says so when not; a stall (rehearsed with `simulation.faults`) fails it
/// safe, and the summary says why, how long, when, and what avoids it.
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote))
struct DemoStallTests {
    /// The built-in configuration with a 30 ms stall at 5 s (after arming at about 3.6 s) and
    /// the largest overrun limit, so the rehearsed stall is the one failsafe the run can have.
    func stalledDemo(in directory: URL) throws -> String {
        let builtIn = try String(contentsOf: repositoryRoot.appending(path: "configs/sim-balancing-robot.yaml"), encoding: .utf8)
        let text = builtIn.replacingOccurrences(of: "  initial_tilt_deg: 10\n", with: """
              initial_tilt_deg: 10
              faults:
                - {at_s: 5, kind: stall, duration_s: 0.03}

            """).replacingOccurrences(of: "  gyroscope_bias_time: 1\n", with: "  gyroscope_bias_time: 1\n  overrun_limit: 1000\n")
        #expect(text.contains("kind: stall") && text.contains("overrun_limit: 1000"))
        let path = directory.appending(path: "stalled-demo.yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aStallFailsTheDemoSafeAndTheSummarySaysWhyAndHowToAvoidIt() throws {
        let directory = try temporaryDirectory()
        let run = try poise(["run", "--config", try stalledDemo(in: directory), "--duration", "7"])
        #expect(run.status == 0, "\(run.error)")
        let lines = run.error.split(separator: "\n").map(String.init)
        let summary = try #require(lines.last { $0.hasPrefix("poise: the outputs failed safe at ") }, "\(run.error)")
        #expect(summary.contains(": the loop stalled for "), "\(summary)")
        #expect(summary.contains(" ms, longer than safety.stall_ms (20.0 ms)"), "\(summary)")
        #expect(summary.contains("real-time priority (loop.realtime_priority"), "\(summary)")
        #expect(summary.contains("safety.stall_ms"), "\(summary)")
        // After the statistics: the last thing the user reads.
        #expect(lines.last == summary, "\(run.error)")
        // The stall as measured (the 30 ms rehearsed, less the tick it replaced): past the limit.
        let ms = summary.components(separatedBy: "stalled for ")[1].components(separatedBy: " ms")[0]
        #expect((Double(ms) ?? 0) > 25, "\(summary)")
    }

    @Test func aNormalDemoEndsWithoutAFailsafeNote() throws {
        let run = try poise(["run", "--duration", "1"])
        #expect(run.status == 0)
        #expect(!run.error.contains("failed safe"), "\(run.error)")
    }

    /// Without CAP_SYS_NICE (dropped with setpriv, as an ordinary user has it) and an rtprio
    /// limit of 0, the demo says it runs with normal scheduling, what that risks and how to
    /// grant it; where it is permitted (root here) it says nothing.
    @Test func theDemoAsksForRealTimePriorityAndSaysWhenItIsRefused() throws {
        let drop = getuid() == 0 ? "exec setpriv --bounding-set -sys_nice --inh-caps -sys_nice -- " : "exec "
        let refused = try runBuilt("/bin/sh", ["-c", "ulimit -r 0 && \(drop)\"$0\" run --duration 0.5", poisePath])
        #expect(refused.status == 0, "\(refused.error)")
        #expect(refused.error.contains("poise: warning: SCHED_FIFO priority 50 not permitted (Operation not permitted); running with normal scheduling"),
                "\(refused.error)")
        #expect(refused.error.contains("ulimit -r 50"), "\(refused.error)")
        if getuid() == 0 {
            let permitted = try poise(["run", "--duration", "0.5"])
            #expect(permitted.status == 0)
            #expect(!permitted.error.contains("SCHED_FIFO"), "\(permitted.error)")
        }
    }
}
