import ArgumentParser
import Foundation
import PoiseConfig
import PoiseLoop
import PoisePlot
import PoiseRun
import PoiseTraces
import PoiseTuning

/// `poise tune`: relay experiments on the rig, a model and gains per loop, the step before
/// and after; `--save` writes the gains into the configuration (`--save-to PATH` a copy),
/// comments kept, unless they did worse than the starting gains in the check (`--force`).
struct TuneCommand: PoiseCommand {
    static let configuration = CommandConfiguration(
        commandName: "tune",
        abstract: "Tune the controller's loops on the rig: relay experiments, an identified model, SIMC gains, a step to check.",
        discussion: """
            Åström–Hägglund relay feedback, one loop at a time through the ordinary tick with the \
            safety supervisor active: the quadrotor stand's three rate loops (together), then its \
            pitch and roll angle loops over the tuned rate loops; the balancing robot's pitch loop \
            (its relay has the configured PD's lead, kd/kp, so the robot rocks about upright). The \
            limit cycle's first harmonics give the plant's response at its frequency, a model \
            K e^(−θs)/s (rate and angle loops) or K e^(−θs)/s² (the robot) goes through it; the rate \
            loops' PIDs put the point at a 45° phase margin (Åström–Hägglund), the angle loops and \
            the robot take SIMC's rules (docs/tuning.md says which and why). The report lists the \
            relay point (period, ultimate gain), the model, the gains, their gain and phase margins \
            on the model, the predicted 10° step, and the step measured on the simulated rig with \
            the starting and with the tuned gains (the quadrotor stepped 10° in pitch, then roll; \
            the robot released at 10° of tilt), and the simulated seconds of experiment.

            Limits from the configuration: each relay's amplitude is --amplitude times the loop's \
            output_limit (angle loops: --angle-amplitude times max_tilt_rate_dps); the experiment \
            stops, every output safe, when the tilt passes half of safety.max_tilt_deg, and the \
            supervisor's own limits stay active behind it.

            Examples:
              poise tune --config configs/sim-quad-x.yaml
              poise tune --config my-robot.yaml --save
              poise tune --config my-robot.yaml --save-to my-robot-tuned.yaml
              poise tune --config configs/sim-balancing-robot.yaml --json --plot step.svg
            """)

    @Option(help: "Configuration file (default: the built-in simulated balancing robot).")
    var config: String?

    @Flag(help: "Write the tuned gains into --config, keeping its comments and layout.")
    var save = false

    @Option(help: "Write --config (or the built-in configuration) with the tuned gains to this file instead; the original is left as it is.")
    var saveTo: String?

    @Flag(help: "Save even when the tuned gains' check step settles slower or overshoots more than the starting gains'.")
    var force = false

    @Flag(help: "Print the report as JSON on standard output.")
    var json = false

    @Option(help: "Plot the measured steps (starting and tuned gains) and the predicted one to this SVG.")
    var plot: String?

    @Option(parsing: .unconditional, help: "Relay amplitude of a rate loop, as a fraction of its output_limit.")
    var amplitude: Double = TuningOptions().amplitude

    @Option(parsing: .unconditional, help: "Relay amplitude of an angle loop, as a fraction of controller.quad.max_tilt_rate_dps.")
    var angleAmplitude: Double = TuningOptions().angleAmplitude

    @Option(parsing: .unconditional, help: "Relay amplitude of the balancing robot's pitch loop, as a fraction of its output_limit.")
    var balanceAmplitude: Double = TuningOptions().balanceAmplitude

    func validate() throws {
        for (name, value) in [("--amplitude", amplitude), ("--angle-amplitude", angleAmplitude), ("--balance-amplitude", balanceAmplitude)] {
            guard value > 0, value <= 1 else { throw ValidationError("\(name) must be more than 0 and at most 1, not \(value)") }
        }
        if save && config == nil {
            throw ValidationError("--save writes into the configuration file: give it with --config FILE (or write a copy with --save-to PATH)")
        }
        if save && saveTo != nil {
            throw ValidationError("--save writes into --config, --save-to PATH elsewhere: give one of them")
        }
    }

    func execute() throws {
        let configuration = try loopConfiguration(config)
        if save, let file = config, !SensorCLI.canReplace(file) {
            throw CLIError("\(file): cannot write it (or its directory), so --save could not keep the result")
        }
        if let saveTo { try OutputFile(path: saveTo).discard() }
        if let plot { try OutputFile(path: plot).discard() }
        var options = TuningOptions()
        options.amplitude = amplitude
        options.angleAmplitude = angleAmplitude
        options.balanceAmplitude = balanceAmplitude
        let report: TuningReport
        StopSignals.blockInProcess()
        let signals = StopSignals()
        signals.start(onReload: {})
        do { report = try Tuner.tune(configuration, options: options, signals: signals) } catch {
            guard error.signal == 0 else {
                printError("poise: tuning \(error.description)")
                throw ExitCode(128 + error.signal)
            }
            throw CLIError("tuning stopped: \(error.description)")
        }
        if json { print(report.json()) } else { print(report.text) }
        var problems: [String] = []
        if let plot {
            do {
                try OutputFile.write(Self.picture(report, title: config ?? "built-in balancing robot"), to: plot)
                if plot != "-" { printError("poise: wrote the \(report.after.count) step\(report.after.count == 1 ? "" : "s") before and after tuning to \(plot)") }
            } catch {
                problems.append(error.description)
            }
        }
        let values = report.values.keys.sorted().map { (path: $0, value: ConfigValue.number(report.values[$0]!)) }
        let source = config ?? BuiltInConfiguration.name
        let original = try config.map { try readTextFile($0) } ?? BuiltInConfiguration.text
        // The file with the gains in place (block or flow style), its "tuned by" notes updated.
        let edited: Result<String, ConfigError>
        do {
            let text = try ConfigEditor.setting(values, in: original, file: source)
            edited = .success(ConfigEditor.replacingTuningNotes(in: text, above: values.map(\.path), with: Self.note(report)))
        } catch {
            edited = .failure(error)
        }
        let regressions = report.regressions
        let target = saveTo ?? (save ? config : nil)
        if let target, !regressions.isEmpty, !force {
            problems.append("not saved: the tuned gains did worse than the starting gains in the check step ("
                + regressions.joined(separator: "; ") + "); --force saves them anyway")
        } else if let target {
            switch edited {
            case .success(let text):
                do {
                    if target == config { try SensorCLI.replaceFile(at: target, with: text) } else { try OutputFile.write(text, to: target) }
                    if !json { print("\nSaved \(values.map(\.path).joined(separator: ", ")) in \(target).") }
                } catch {
                    problems.append("\(error)")
                }
            case .failure(let error):
                printError("poise: not saved; merge these keys into \(source)'s own sections yourself:\n" + ConfigEditor.snippet(values))
                problems.append("\(error)")
            }
        } else if !json {
            if !regressions.isEmpty { print("\nThe tuned gains did worse than the starting gains: " + regressions.joined(separator: "; ") + ".") }
            print("\nFor your configuration (--save writes them into --config, --save-to PATH writes a copy):")
            switch edited {
            case .success(let text): print(Self.changedLines(original, text, source), terminator: "")
            case .failure: print(ConfigEditor.snippet(values), terminator: "")
            }
        }
        if !problems.isEmpty { throw CLIError(problems: problems) }
    }

    /// The comment `--save` leaves above the gains it wrote.
    static func note(_ report: TuningReport) -> String {
        var note = "Tuned by `poise tune` on the \(report.simulated ? "simulated" : "real") \(report.rig.replacingOccurrences(of: "_", with: " "))"
        let settled = report.after.compactMap { check in check.response?.settlingTime.map { "\(check.axis) settles in \(String(format: "%.2f", $0)) s" } }
        if !settled.isEmpty { note += " (its 10° check: " + settled.joined(separator: ", ") + ")" }
        return note + "; docs/tuning.md."
    }

    /// The lines of `edited` that `original` does not have, each as `FILE:LINE: text`: where
    /// in the user's own file each goes, so nothing is pasted twice ("duplicate key").
    static func changedLines(_ original: String, _ edited: String, _ file: String) -> String {
        let before = original.split(separator: "\n", omittingEmptySubsequences: false)
        let after = edited.split(separator: "\n", omittingEmptySubsequences: false)
        var kept = Set(before.map(String.init))
        var lines = ""
        for (index, line) in after.enumerated() where !kept.contains(String(line)) {
            lines += "  \(file):\(index + 1): \(line)\n"
            kept.insert(String(line))
        }
        return lines
    }

    /// One panel per stepped axis: the step with the starting gains, with the tuned gains, and
    /// the tuned loop's prediction.
    static func picture(_ report: TuningReport, title: String) -> String {
        var panels: [PlotPanel] = []
        for (index, check) in report.after.enumerated() {
            var series: [PlotSeries] = []
            if index < report.before.count, let r = report.before[index].response {
                series.append(PlotSeries(name: "starting gains", x: r.time, y: r.value, color: "#d62728"))
            }
            if let r = check.response { series.append(PlotSeries(name: "tuned gains", x: r.time, y: r.value, color: "#1f77b4")) }
            let predicted = report.loops.filter { $0.predicted != nil }
            if index < predicted.count, let p = predicted[index].predicted {
                series.append(PlotSeries(name: "predicted (model)", x: p.time, y: p.value, style: .dashed, color: "#222222"))
            }
            panels.append(PlotPanel(title: "\(check.axis): 10° step", yLabel: "\(check.axis) (°)", series: series))
        }
        return SVGPlot(title: "poise tune: \(title)", xLabel: "s after the step", panels: panels).render()
    }
}
