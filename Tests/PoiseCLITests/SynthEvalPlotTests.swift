import Foundation
import Testing

@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote))
struct SynthEvalPlotTests {
    @Test func synthIsDeterministicAndSeeded() throws {
        let a = try poise(["synth", "--motion", "demo", "--rate", "50"])
        let b = try poise(["synth", "--motion", "demo", "--rate", "50"])
        let c = try poise(["synth", "--motion", "demo", "--rate", "50", "--seed", "2"])
        #expect(a.status == 0 && a.output == b.output && a.output != c.output)
        #expect(a.text.contains("# movement="))
    }

    /// An attached magnet is a dipole carried with the body: 0.01 A·m² at 4 cm adds
    /// 0.2·0.01/0.04³ = 31.25 µT along body x to every reading and nothing else (ideal sensor:
    /// no soft-iron scale on top).
    @Test func synthAttachedMagnetAddsItsDipoleAlongBodyX() throws {
        let plain = try poise(["synth", "--motion", "demo", "--rate", "20", "--errors", "ideal"])
        let magnet = try poise(["synth", "--motion", "demo", "--rate", "20", "--errors", "ideal", "--attached-magnet", "4"])
        #expect(plain.status == 0 && magnet.status == 0, "\(magnet.error)")
        func rows(_ text: String) -> [[String]] {
            text.split(separator: "\n").filter { !$0.hasPrefix("#") }.dropFirst().map { $0.split(separator: ",").map(String.init) }
        }
        let header = plain.text.split(separator: "\n").first { !$0.hasPrefix("#") }!.split(separator: ",").map(String.init)
        let mx = try #require(header.firstIndex(of: "mx")), my = try #require(header.firstIndex(of: "my"))
        let a = rows(plain.text), b = rows(magnet.text)
        #expect(a.count == b.count && a.count > 100)
        for (p, m) in zip(a, b) {
            #expect(abs(Double(m[mx])! - Double(p[mx])! - 31.25) < 1e-3)
            #expect(m[my] == p[my])
        }
        let bad = try poise(["synth", "--motion", "demo", "--attached-magnet", "0"])
        #expect(bad.status == 64 && bad.error.contains("--attached-magnet '0'"))
    }

    /// The same magnet at 4 cm (31.25 µT along body x) is learned once the demo turns, and
    /// `--columns hard_iron` shows it; without the magnet the column stays zero.
    @Test func replayShowsTheLearnedHardIronOffset() throws {
        let directory = try temporaryDirectory()
        func lastOffset(_ extra: [String]) throws -> SIMD3<Double> {
            let trace = directory.appending(path: "trace\(extra.count).csv").path
            let synth = try poise(["synth", "--motion", "demo", "-o", trace] + extra)
            #expect(synth.status == 0, "\(synth.error)")
            let replay = try poise(["replay", trace, "--columns", "hard_iron", "-o", "-"])
            #expect(replay.status == 0, "\(replay.error)")
            let lines = replay.text.split(separator: "\n").filter { !$0.hasPrefix("#") }
            let header = lines[0].split(separator: ",").map(String.init)
            let x = try #require(header.firstIndex(of: "hard_iron_x"))
            let last = lines[lines.count - 1].split(separator: ",").map { Double($0)! }
            return SIMD3(last[x], last[x + 1], last[x + 2])
        }
        let learned = try lastOffset(["--attached-magnet", "4"]) - SIMD3(31.25, 0, 0)
        // To within what the default minimum improvement (0.07 of the 45 µT field) leaves.
        #expect((learned * learned).sum().squareRoot() < 0.07 * 45, "\(learned)")
        #expect(try lastOffset([]) == .zero)
    }

    @Test func synthRejectsBadArguments() throws {
        let none = try poise(["synth"])
        #expect(none.status == 64)
        let unknown = try poise(["synth", "--motion", "loop-the-loop"])
        #expect(unknown.status == 64)
        // With this many presets the argument parser lists them one per line.
        #expect(unknown.error.hasPrefix("Error: The value 'loop-the-loop' is invalid for '--motion <motion>'. Please provide one of the following:\n  - demo\n"),
                "\(unknown.error)")
    }

    @Test func evalScoresEveryFilterOnASyntheticTrace() throws {
        let directory = try temporaryDirectory()
        let trace = directory.appending(path: "demo.csv").path
        #expect(try poise(["synth", "--motion", "demo", "--rate", "100", "-o", trace]).status == 0)
        for filter in ["poise", "mekf", "madgwick", "mahony", "complementary"] {
            let run = try poise(["eval", trace, "--filter", filter, "--json"])
            #expect(run.status == 0, "\(filter): \(run.error)")
            let json = try JSONSerialization.jsonObject(with: run.output) as? [String: Any]
            let mean = json?["mean"] as? [String: Any]
            let total = mean?["total"] as? Double
            // A calibrated sensor and an exact truth: every filter should be within a few degrees.
            #expect(total.map { $0 < 6 } == true, "\(filter): \(run.text)")
        }
    }

    @Test func evalNeedsGroundTruth() throws {
        let directory = try temporaryDirectory()
        let trace = directory.appending(path: "no-truth.csv")
        try "t,ax,ay,az,gx,gy,gz\n0,0,0,9.8,0,0,0\n".write(to: trace, atomically: true, encoding: .utf8)
        let run = try poise(["eval", trace.path])
        #expect(run.status == 1)
        #expect(run.error.contains("no ground truth"))
    }

    @Test func plotWritesAStandaloneSVG() throws {
        let directory = try temporaryDirectory()
        let trace = directory.appending(path: "demo.csv").path
        let estimate = directory.appending(path: "estimate.csv").path
        let svg = directory.appending(path: "plot.svg").path
        #expect(try poise(["synth", "--motion", "demo", "--rate", "50", "-o", trace]).status == 0)
        #expect(try poise(["replay", trace, "--columns", "truth", "--quiet", "-o", estimate]).status == 0)
        let run = try poise(["plot", estimate, "-o", svg])
        #expect(run.status == 0, "\(run.error)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.contains("<svg") && text.hasSuffix("</svg>\n"))
        #expect(text.contains("truth"))
        let missing = try poise(["plot", estimate, "--columns", "heading", "-o", svg])
        #expect(missing.status == 1)
        #expect(missing.error.contains("no column 'heading'"))
    }
}
