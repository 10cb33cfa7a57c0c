import ArgumentParser
import PoiseCommandLine
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
            The config's sensor.calibration is applied to traces not marked `# calibrated=yes`.

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
        for path in traces {
            let reader = try TraceReader(path: path)
            let progress = ProgressBar(total: reader.metadata["samples"].flatMap(Int.init), enabled: true)
            var evaluator = TraceEvaluator(reader: reader, configuration: configuration, useMagnetometer: useMagnetometer,
                                           progress: progress.update)
            let evaluation = try choice.run(&evaluator)
            progress.finish()
            let name = traceName(path)
            results.append(NamedResult(name: name, result: evaluation.result))
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
        if let plot {
            let svg = SVGPlot(title: "Attitude error of \(choice.kind.rawValue) (\(useMagnetometer ? "9D" : "6D"))",
                              xLabel: "time (s)", panels: panels)
            try writeTextFile(svg.render(), to: plot)
            if plot != "-" { printError("poise: wrote the total error of \(panels.count) trace\(panels.count == 1 ? "" : "s") to \(plot)") }
        }
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
