import ArgumentParser
import PoiseCommandLine
import PoiseConfig
import PoiseEvaluation
import PoiseMath
import PoisePlot
import PoiseReplay
import PoiseSensors
import PoiseTraces
import Foundation

/// `poise eval`: scores a filter against the ground truth of traces.
struct EvalCommand: PoiseCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Score a filter against the ground truth of one or more traces.",
        discussion: """
            Uses the metric of the BROAD benchmark (Laidig et al., Data 2021): for each scored \
            row, the error quaternion q_e = q_est ⊗ conj(q_ref) gives a total error \
            2·acos(|w|), a heading error 2·atan(|z/w|) and an inclination error \
            2·acos(√(w²+z²)). Rows are scored inside the trace's `# movement=a:b,…` ranges \
            (all rows with a reference when there is none). Each trace gets the RMSE of each \
            error in degrees; the last line is their plain mean. In 6D (--mag off, or a trace \
            without magnetometer) one constant heading offset per trace is removed first. \
            The config's sensor.calibration is applied to traces not marked `# calibrated=yes`. \
            A hint follows a 9D trace whose heading error exceeds 10° while the magnetometer's \
            field strength, as the filter saw it, spreads by more than 25 % of its median \
            (5th to 95th percentile) as the sensor turns: the earth's field has one strength in \
            every orientation, a hard-iron offset does not, so the magnetometer looks uncalibrated.

            Examples:
              poise eval ../shared/traces/*.csv
              poise eval run.csv --filter madgwick --mag off --json
              poise eval run.csv --plot error.svg
            """)

    @Argument(help: "Traces with ground truth (qw,qx,qy,qz columns).")
    var traces: [String]

    @OptionGroup var estimation: EstimationOptions

    @OptionGroup var reading: TraceInputOptions

    @Flag(help: "Print the results as JSON instead of a table.")
    var json = false

    @Option(help: "Write an SVG of the total error over time of every trace.")
    var plot: String?

    func execute() throws {
        Interruption.install()
        reading.apply()
        let configuration = try estimation.loadConfiguration()
        let choice = try estimation.filterChoice(configuration)
        let useMagnetometer = try estimation.useMagnetometer(configuration)
        var results: [NamedResult] = []
        var panels: [PlotPanel] = []
        var hints: [String] = []
        for path in traces {
            let reader = try TraceReader(path: path)
            let progress = ProgressBar(total: reader.metadata["samples"].flatMap(Int.init), enabled: true)
            var evaluator = TraceEvaluator(reader: reader, configuration: configuration, useMagnetometer: useMagnetometer,
                                           progress: progress.update)
            let evaluation = try choice.run(&evaluator)
            progress.finish()
            let name = traceName(path)
            results.append(NamedResult(name: name, result: evaluation.result))
            if useMagnetometer, evaluation.result.heading > Self.hintHeadingDegrees, !Interruption.requested,
               let spread = try Self.magnetometerSpread(path, configuration: configuration), spread > Self.hintFieldSpread {
                hints.append("\(name): heading error \(formatted(evaluation.result.heading, digits: 1))° while the magnetometer's field strength "
                    + "spreads by \(formatted(spread * 100, digits: 0)) % of its median over the trace (5th to 95th percentile; the earth's field "
                    + "has one strength in every orientation: a calibrated magnetometer spreads by less than \(formatted(Self.hintFieldSpread * 100, digits: 0)) %): this one "
                    + "looks uncalibrated. Fit it from this trace with `poise calibrate mag --trace \(path) --config FILE --save`, then eval with --config FILE.")
            }
            if plot != nil {
                panels.append(PlotPanel(
                    title: "\(name): total error, RMSE \(formatted(evaluation.result.total, digits: 2))°",
                    yLabel: "error (°)",
                    series: [PlotSeries(name: choice.kind.rawValue, x: evaluation.times, y: evaluation.totalErrors)]))
            }
        }
        // Scores of a partly read trace would look like real ones: print nothing.
        if Interruption.requested { return }
        if json {
            print(encodeResultsJSON(results))
        } else {
            print("filter \(choice.kind.rawValue), \(useMagnetometer ? "9D" : "6D"); RMSE in degrees")
            print(formatResultTable(results), terminator: "")
        }
        for hint in hints { printError("poise: hint: \(hint)") }
        if let plot {
            let svg = SVGPlot(title: "Attitude error of \(choice.kind.rawValue) (\(useMagnetometer ? "9D" : "6D"))",
                              xLabel: "time (s)", panels: panels)
            try writeTextFile(svg.render(), to: plot)
            if plot != "-" { printError("poise: wrote the total error of \(panels.count) trace\(panels.count == 1 ? "" : "s") to \(plot)") }
        }
    }
}

extension EvalCommand {
    /// Heading error (RMSE, °) above which the magnetometer is looked at.
    static let hintHeadingDegrees = 10.0
    /// Spread of the field strength, (95th − 5th percentile) / median, above which it looks
    /// uncalibrated: 1.07 on README's uncalibrated tumble, 0.07 once `calibrate mag` fitted it.
    static let hintFieldSpread = 0.25

    /// How much the magnetometer's field strength varies over a trace, as the filter sees it
    /// (the configuration's calibration applied as eval applies it): (p95 − p5) / median of
    /// |m|; nil without enough magnetometer samples.
    static func magnetometerSpread(_ path: String, configuration: PoiseConfiguration) throws -> Double? {
        var reader = try TraceReader(path: path)
        let calibration = TraceFeed(configuration: configuration).calibration(for: reader.metadata)
        var norms: [Float] = []
        while let sample = try reader.next() {
            guard var m = sample.magnetometer, m.x.isFinite, m.y.isFinite, m.z.isFinite else { continue }
            if let calibration { m = calibration.correctMagnetometer(m) }
            norms.append((m * m).sum().squareRoot())
        }
        guard norms.count >= 20 else { return nil }
        norms.sort()
        let median = Double(norms[norms.count / 2])
        guard median > 0 else { return nil }
        return Double(norms[norms.count * 95 / 100] - norms[norms.count * 5 / 100]) / median
    }
}

/// A trace's file name without directory and extension, for tables and legends.
func traceName(_ path: String) -> String {
    var name = path.split(separator: "/").last.map(String.init) ?? path
    for suffix in [".csv", ".ptrace", ".bin"] where name.hasSuffix(suffix) {
        name.removeLast(suffix.count)
    }
    return name
}

/// Writes a whole text output under the output-file policy (`OutputFile`).
func writeTextFile(_ text: String, to path: String) throws {
    if path == "-" { print(text, terminator: ""); return }
    try OutputFile.write(text, to: path)
}
