import Foundation
import Testing

/// `poise plot REC` and `poise eval` as a user first runs them: the attitude by default, the
/// recording's own configuration for its outputs' units, y-labels that stay beside their
/// panel, and a hint when the magnetometer looks uncalibrated.
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote))
struct PlotAndEvalDefaultsTests {
    /// Each turned y-label of an SVG: its text and font size, and the panels' height.
    static func yLabels(_ svg: String) -> (labels: [(text: String, size: Double)], panelHeight: Double) {
        let label = try! NSRegularExpression(pattern: "<text x=\"[0-9.]+\" y=\"[0-9.]+\" text-anchor=\"middle\"(?: font-size=\"([0-9.]+)\")? transform=\"rotate\\(-90[^\"]*\">([^<]*)</text>")
        let labels = label.matches(in: svg, range: NSRange(svg.startIndex..., in: svg)).map { match in
            let size = Range(match.range(at: 1), in: svg).flatMap { Double(svg[$0]) } ?? 12
            return (String(svg[Range(match.range(at: 2), in: svg)!]), size)
        }
        let rect = try! NSRegularExpression(pattern: "<rect x=\"[0-9.]+\" y=\"[0-9.]+\" width=\"[0-9.]+\" height=\"([0-9.]+)\" fill=\"none\" stroke=\"#888\"")
        let height = rect.firstMatch(in: svg, range: NSRange(svg.startIndex..., in: svg))
            .flatMap { Range($0.range(at: 1), in: svg) }.flatMap { Double(svg[$0]) } ?? 0
        return (labels, height)
    }

    @Test func aRecordingIsPlottedAsItsAttitudeWithItsOwnConfiguration() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let recording = dir.appending(path: "quad.csv").path
        let config = repositoryRoot.appending(path: "configs/sim-quad-x.yaml").path
        #expect(try poise(["simulate", "--config", config, "--duration", "8", "--record", recording]).status == 0)
        let attitude = try poise(["plot", recording, "-o", "-"])
        #expect(attitude.status == 0, "\(attitude.error)")
        let labels = Self.yLabels(attitude.text).labels.map(\.text)
        #expect(labels == ["roll (°)", "pitch (°)", "yaw (°)"], "\(labels)")
        // The simulation's truth is drawn dashed with the loop's estimate.
        #expect(attitude.text.contains(">truth</text>"))
        // The recording's embedded configuration gives the ESC channel its unit, no --config.
        let outputs = try poise(["plot", recording, "--columns", "out_esc1", "-o", "-"])
        #expect(Self.yLabels(outputs.text).labels.map(\.text) == ["out_esc1 (µs high time)"], "\(Self.yLabels(outputs.text).labels)")
    }

    @Test func yLabelsStayBesideTheirOwnPanel() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A file without a configuration: the output column's unit says all it can, at length.
        let csv = dir.appending(path: "outputs.csv")
        var text = "t,out_left_motor_pwm,gx\n"
        for i in 0 ..< 200 { text += "\(Double(i) / 100),\(1500 + i),\(Double(i) / 1000)\n" }
        try text.write(to: csv, atomically: true, encoding: .utf8)
        let run = try poise(["plot", csv.path, "--columns", "out_left_motor_pwm,gx", "-o", "-"])
        #expect(run.status == 0, "\(run.error)")
        let (labels, height) = Self.yLabels(run.text)
        #expect(height > 0 && labels.count >= 2, "\(labels)")
        #expect(labels.map(\.text).joined(separator: " ").contains("GPIO level"), "\(labels)")
        for (label, size) in labels {
            // 6.8 px a character at 12 px, generously: the turned line fits the panel's height.
            #expect(Double(label.count) * 6.8 * size / 12 <= height, "'\(label)' at \(size) px overruns a \(height) px panel")
        }
    }

    @Test func evalHintsAtAnUncalibratedMagnetometerAndNotOnceCalibrated() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appending(path: "tumble.csv").path, bench = dir.appending(path: "bench.yaml").path
        #expect(try poise(["synth", "--motion", "tumble", "--errors", "uncalibrated", "--seed", "4", "-o", trace]).status == 0)
        let raw = try poise(["eval", trace])
        #expect(raw.status == 0)
        #expect(raw.error.contains("poise: hint: tumble: heading error") && raw.error.contains("looks uncalibrated")
                && raw.error.contains("poise calibrate mag --trace"), "\(raw.error)")
        #expect(try poise(["calibrate", "mag", "--trace", trace, "--config", bench, "--save"]).status == 0)
        let calibrated = try poise(["eval", trace, "--config", bench])
        #expect(calibrated.status == 0)
        #expect(!calibrated.error.contains("hint"), "\(calibrated.error)")
        // 6D uses no magnetometer: nothing to hint at.
        #expect(!(try poise(["eval", trace, "--mag", "off"])).error.contains("hint"))
    }
}
