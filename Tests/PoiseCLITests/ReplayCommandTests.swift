import Foundation
import Testing

/// A short motion touching every kind of segment, for the golden replay.
let goldenScript = """
    rest 1
    rotate z 90 deg over 1 s
    rotate x 45 deg over 1 s
    shake 1 s amplitude 2 m/s2 frequency 3 hz
    rest 1
    """

/// Set POISE_UPDATE_GOLDEN=1 to rewrite golden files after an intended change.
let updateGolden = ProcessInfo.processInfo.environment["POISE_UPDATE_GOLDEN"] == "1"
let goldenDirectory = repositoryRoot.appending(path: "Tests/PoiseCLITests/Golden")

func checkGolden(_ data: Data, name: String) throws {
    let url = goldenDirectory.appending(path: name)
    if updateGolden { try data.write(to: url) }
    let golden = try Data(contentsOf: url)
    #expect(data == golden, "output differs from \(name); if intended, rerun with POISE_UPDATE_GOLDEN=1")
}

@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote))
struct ReplayCommandTests {
    /// A synthetic trace made by the project's own simulator.
    func syntheticTrace(in directory: URL, rate: Int = 100) throws -> String {
        let script = directory.appending(path: "motion.txt")
        try goldenScript.write(to: script, atomically: true, encoding: .utf8)
        let trace = directory.appending(path: "trace.csv").path
        let run = try poise(["synth", "--script", script.path, "--rate", "\(rate)", "--seed", "3", "-o", trace])
        #expect(run.status == 0, "\(run.error)")
        return trace
    }

    @Test func goldenReplayOfSyntheticTrace() throws {
        let directory = try temporaryDirectory()
        let trace = try syntheticTrace(in: directory)
        let run = try poise(["replay", trace, "--quiet"])
        #expect(run.status == 0, "\(run.error)")
        try checkGolden(run.output, name: "replay-synthetic-poise.csv")
    }

    @Test func outputHasOneRowPerInputRowAndCarriesMetadata() throws {
        let directory = try temporaryDirectory()
        let trace = try syntheticTrace(in: directory)
        let input = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        for filter in ["poise", "mekf", "madgwick", "mahony", "complementary"] {
            let run = try poise(["replay", trace, "--filter", filter, "--quiet"])
            #expect(run.status == 0, "\(filter): \(run.error)")
            let lines = run.text.split(separator: "\n")
            let comments = input.filter { $0.hasPrefix("#") }
            for comment in comments { #expect(lines.contains(comment), "\(filter) lost \(comment)") }
            #expect(lines.contains("# estimate=\(filter)"))
            let header = lines.first { !$0.hasPrefix("#") }
            #expect(header == "t,qw,qx,qy,qz,roll,pitch,yaw")
            #expect(lines.filter { !$0.hasPrefix("#") }.count == input.filter { !$0.hasPrefix("#") }.count)
        }
    }

    @Test func replayIsByteIdenticalAcrossRunsAndFormats() throws {
        let directory = try temporaryDirectory()
        let trace = try syntheticTrace(in: directory)
        let binary = directory.appending(path: "trace.ptrace").path
        #expect(try poise(["convert", trace, binary]).status == 0)
        let first = try poise(["replay", trace, "--columns", "all", "--quiet"])
        let second = try poise(["replay", trace, "--columns", "all", "--quiet"])
        let fromBinary = try poise(["replay", binary, "--columns", "all", "--quiet"])
        #expect(first.status == 0 && second.status == 0 && fromBinary.status == 0)
        #expect(first.output == second.output)
        #expect(first.output == fromBinary.output)
    }

    @Test func sixDAndFramesChangeTheOutput() throws {
        let directory = try temporaryDirectory()
        let trace = try syntheticTrace(in: directory)
        let enu = try poise(["replay", trace, "--quiet"]).output
        let nwu = try poise(["replay", trace, "--frame", "nwu", "--quiet"]).output
        let sixD = try poise(["replay", trace, "--mag", "off", "--quiet"]).output
        #expect(enu != nwu && enu != sixD)
    }

    @Test func badInputGivesLocatedErrorsAndExitStatus() throws {
        let directory = try temporaryDirectory()
        let bad = directory.appending(path: "bad.csv")
        try "t,ax,ay,az,gx,gy,gz\n0,0,0,9.8,0,0,0\n0.01,0,zero,9.8,0,0,0\n".write(to: bad, atomically: true, encoding: .utf8)
        let run = try poise(["replay", bad.path, "--quiet", "-o", directory.appending(path: "out.csv").path])
        #expect(run.status == 1)
        #expect(run.error.hasPrefix("poise: \(bad.path):3:8: "), "\(run.error)")

        let missing = try poise(["replay", directory.appending(path: "none.csv").path])
        #expect(missing.status == 1)
        #expect(missing.error.hasPrefix("poise: "))

        let badFilter = try poise(["replay", bad.path, "--filter", "kalman"])
        #expect(badFilter.status == 64)
        #expect(badFilter.error.contains("Please provide one of 'poise', 'mekf', 'madgwick', 'mahony' or 'complementary'."))
    }

    @Test func invalidConfigIsRefused() throws {
        let directory = try temporaryDirectory()
        let trace = try syntheticTrace(in: directory)
        let config = directory.appending(path: "bad.yaml")
        try "filter:\n  madgwick:\n    betta: 0.1\n".write(to: config, atomically: true, encoding: .utf8)
        let run = try poise(["replay", trace, "--config", config.path, "--quiet"])
        #expect(run.status == 1)
        #expect(run.error.contains("\(config.path):3: filter.madgwick.betta"))
    }

    @Test(.enabled(if: !sharedTraceFiles.isEmpty, sharedTracesNote))
    func everySharedTraceReplaysInENUAndNWU() throws {
        for trace in sharedTraceFiles {
            let rows = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
                .filter { !$0.hasPrefix("#") }.count
            for frame in ["enu", "nwu"] {
                let run = try poise(["replay", trace, "--frame", frame, "--quiet"])
                #expect(run.status == 0, "\(trace) \(frame): \(run.error)")
                let lines = run.text.split(separator: "\n").filter { !$0.hasPrefix("#") }
                #expect(lines.count == rows)
                var bad = 0
                for line in lines.dropFirst() {
                    let cells = line.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
                    guard cells.count == 8, cells.allSatisfy({ $0?.isFinite == true }) else { bad += 1; continue }
                    let norm = (1...4).reduce(0.0) { $0 + cells[$1]! * cells[$1]! }
                    if abs(norm - 1) > 1e-4 { bad += 1 }
                }
                #expect(bad == 0, "\(trace) \(frame): \(bad) invalid rows")
            }
        }
    }

    @Test(.enabled(if: !sharedTraceFiles.isEmpty, sharedTracesNote))
    func goldenDigestOfASharedTrace() throws {
        let trace = sharedTraceFiles.first { $0.hasSuffix("01_undisturbed_slow_rotation_A.csv") }!
        let run = try poise(["replay", trace, "--quiet"])
        #expect(run.status == 0)
        try checkGolden(Data((fnv1a(run.output) + "\n").utf8), name: "replay-broad-01-poise.fnv1a")
    }
}
