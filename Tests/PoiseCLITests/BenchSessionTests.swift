import Foundation
import Testing

/// README's bench session, run as written: the uncalibrated tumble needs the magnetometer
/// calibration step, and with it the heading error is what README says.
@Suite(.enabled(if: poiseIsBuilt, "needs .build/debug/poise: run `swift build` first"))
struct BenchSessionTests {
    /// The heading column of `poise eval`'s table for the one trial.
    static func heading(_ run: PoiseRun) throws -> Double {
        let row = try #require(run.text.split(separator: "\n").first { $0.hasPrefix("tumble") })
        let fields = row.split(separator: " ", omittingEmptySubsequences: true)
        return try #require(Double(String(fields[2])))
    }

    @Test func calibratingTheTumbleFirstTakesTheHeadingErrorFromAboutFortyEightDegreesToAboutFive() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appending(path: "tumble.csv").path
        let config = directory.appending(path: "bench.yaml").path
        #expect(try poise(["synth", "--motion", "tumble", "--errors", "uncalibrated", "--seed", "4", "-o", trace]).status == 0)
        let uncalibrated = try poise(["eval", trace, "--filter", "poise"])
        #expect(uncalibrated.status == 0, "\(uncalibrated.error)")
        let calibrate = try poise(["calibrate", "mag", "--trace", trace, "--config", config, "--save"])
        #expect(calibrate.status == 0, "\(calibrate.error)")
        let calibrated = try poise(["eval", trace, "--config", config, "--filter", "poise"])
        #expect(calibrated.status == 0, "\(calibrated.error)")
        let before = try Self.heading(uncalibrated), after = try Self.heading(calibrated)
        #expect(before > 40 && before < 56, "README says about 48°: \(before)")
        #expect(after < 8, "README says about 5°: \(after)")
        let readme = try String(contentsOf: repositoryRoot.appending(path: "README.md"), encoding: .utf8)
        #expect(readme.contains("poise calibrate mag --trace tumble.csv --config bench.yaml --save"))
    }
}
