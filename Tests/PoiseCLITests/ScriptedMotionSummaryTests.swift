import Foundation
import Testing

/// `poise simulate` on the scripted-motion plant (boards/sim.yaml: no controller) reports what
/// was simulated and the estimate's error against the truth, not the control loop's figures.
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote))
struct ScriptedMotionSummaryTests {
    @Test func theScriptedMotionPlantReportsTheEstimateAgainstTheTruth() throws {
        let run = try poise(["simulate", "--config", repositoryRoot.appending(path: "boards/sim.yaml").path, "--duration", "10", "--quiet"])
        #expect(run.status == 0, "\(run.error)")
        let lines = run.text.split(separator: "\n").map(String.init)
        #expect(lines.first == "simulated 10.00 s of the scripted motion `demo` (simulation.motion, repeated; no controller) at 200.0 Hz (2000 ticks)",
                "\(run.text)")
        #expect(lines.contains { $0.hasPrefix("estimate established at ") && $0.hasSuffix(" s; error against the truth from then to the end:") },
                "\(run.text)")
        // The figures are measured; the inclination is small for the default filter on its demo
        // motion (boards/sim.yaml's magnetometer is uncalibrated: the heading is not, and says so).
        for name in ["attitude", "inclination"] {
            let line = try #require(lines.first { $0.hasPrefix("  \(name) ") }, "\(run.text)")
            let worst = Double(line.components(separatedBy: "worst ")[1].components(separatedBy: "°")[0]) ?? .nan
            let rms = Double(line.components(separatedBy: "rms ")[1].components(separatedBy: "°")[0]) ?? .nan
            #expect(worst.isFinite && rms.isFinite && rms <= worst && (name == "attitude" || worst < 5), "\(line)")
        }
        #expect(lines.contains { $0.hasPrefix("  the rest is heading: an uncalibrated magnetometer") }, "\(run.text)")
        // None of the control loop's wording.
        for word in ["of none", "worst true pitch", "armed", "true pitch within"] { #expect(!run.text.contains(word), "\(word): \(run.text)") }
    }

    @Test func aControlledPlantKeepsItsControlFigures() throws {
        let run = try poise(["simulate", "--duration", "6", "--quiet"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.text.hasPrefix("simulated 6.00 s of balance at 1000.0 Hz"), "\(run.text)")
        #expect(run.text.contains("worst true pitch"), "\(run.text)")
    }
}
