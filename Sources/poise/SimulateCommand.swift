import ArgumentParser
import Foundation
import PoiseConfig
import PoiseLoop
import PoiseMonteCarlo
import PoiseRun
import PoiseSimulation
import PoisePlot
import PoiseTraces

/// `poise simulate`: the closed loop in simulated time — plant, chip, filter, controller,
/// outputs — as fast as the machine goes, with a summary, a recording and a plot.
struct SimulateCommand: PoiseCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run the closed loop against the simulated plant in simulated time and report how it went.",
        discussion: """
            The same tick as `poise run` (the register-level MPU-9250 and the simulated \
            outputs, coupled to the plant `simulation.plant` names), but in simulated time: \
            no sleeping, so 60 s take a second or two, and the result depends only on the \
            configuration. Prints when the loop armed, when the true pitch settled within 1°, \
            the worst true pitch and roll from 2 s after arming, the share of armed time the \
            drive outputs sat at a limit, and the arming transitions. A plant whose integration \
            breaks down (its state non-finite) is reported as diverged, with its time and \
            cause, and the run exits 1. \
            SIGINT (Ctrl-C) or SIGTERM ends the run at the next tick: the recording ends on a \
            whole record, one line says what it kept, and the exit status is 130 (143).

            Examples:
              poise simulate                                     # the built-in balancing robot, 10 s
              poise simulate --config configs/sim-quad-x.yaml --duration 20 --plot quad.svg
              poise simulate --record sim.csv && poise eval sim.csv --config configs/sim-balancing-robot.yaml

            Monte-Carlo (--trials N): N worlds drawn from a spread (--spread FILE, or the \
            plant's built-in one: --print-spread), run on --jobs threads in simulated time; \
            prints the success rate, the distributions of settling time, worst tilt and pitch \
            RMS, and the worst trials with the command that runs each alone (--trial K). The \
            report depends only on the seeds, not on --jobs. docs/simulation.md says more.
              poise simulate --trials 200 --duration 60 --plot robustness.svg
              poise simulate --config configs/sim-quad-x.yaml --trials 200 --duration 60 --json
              poise simulate --trials 200 --duration 60 --trial 17      # trial 17 alone
            """)

    @OptionGroup var loop: LoopOptions

    @Option(help: "Record every tick to this trace (.csv or .ptrace).")
    var record: String?

    @Flag(help: "Replace an existing file at --record (a recording never replaces one otherwise), or an earlier --plot with a PARTIAL run's (--trials cut short).")
    var overwrite = false

    @Option(help: "Plot true and estimated pitch and roll, the outputs and the arming state to this SVG (with --trials: the trials' outcomes, sorted).")
    var plot: String?

    @OptionGroup(title: "Monte-Carlo") var monteCarlo: MonteCarloOptions

    /// Simulated seconds; the report keeps every tick, so they are bounded.
    var duration: Double { loop.duration ?? 10 }

    func validate() throws {
        if duration > 3600 { throw ValidationError("--duration: at most 3600 simulated seconds (the report keeps every tick)") }
        if monteCarlo.isMonteCarlo || monteCarlo.printSpread, record != nil {
            throw ValidationError("--record records one run: run the trial alone with --trial K, or write its drawn keys into a configuration")
        }
        if monteCarlo.shard != nil, plot != nil {
            throw ValidationError("--shard prints the part's figures for --merge; --plot goes with --merge")
        }
    }

    func execute() throws {
        var configuration = try loopConfiguration(loop.config)
        if monteCarlo.isMonteCarlo || monteCarlo.printSpread { return try executeMonteCarlo(configuration) }
        // Before any other thread exists: SIGINT/SIGTERM end the run at the next tick.
        StopSignals.blockInProcess()
        if let seed = monteCarlo.seed {
            configuration.values["simulation.seed"] = .integer(seed)
            configuration = PoiseConfiguration(values: configuration.values)
        }
        var options = RunOptions(signals: StopSignals())
        options.virtualDuration = duration
        options.recordPath = record
        options.overwrite = overwrite
        options.quiet = loop.quiet
        options.configPath = loop.config
        // Tried now, as the recording is opened now: a path that cannot be written fails before
        // the run. Not kept open: an interrupted simulation leaves no temporary file of it.
        if let plot { try OutputFile(path: plot).discard() }
        let result: RunResult
        // The plant reports a divergence (its state non-finite, or too stiff to integrate) here.
        let watch = SimulationWatch()
        do {
            result = try SimulationWatch.$current.withValue(watch) { () throws(RunError) -> RunResult in
                try LoopRunner.run(configuration, options: options)
            }
        } catch {
            throw CLIError("\(error)")
        }
        guard let report = result.report else { throw CLIError("the simulated run made no report") }
        func f(_ x: Double) -> String { String(format: "%.2f", x) }
        if result.signal != 0 {
            let name = result.signal == SIGINT ? "SIGINT" : "SIGTERM"
            var message = "poise: interrupted by \(name) after \(f(result.seconds)) simulated s"
            if let record {
                message += "; \(record) keeps the \(result.recordedTicks) ticks simulated from the first sample on, ending on a whole record"
            }
            for problem in result.problems { printError("poise: \(problem)") }
            printError(message + (plot != nil ? "; no plot written" : ""))
            throw ExitCode(128 + result.signal)
        }
        // The scripted-motion plant controls nothing: its result is the estimate against the truth.
        let scripted = SimulatedRig.plant(configuration) == .motion
        if scripted {
            for line in report.scriptedMotionLines(motion: configuration.simulation.motion, seconds: result.seconds,
                                                   rateHz: configuration.loop.rateHz, ticks: Int(result.statistics.ticks)) { print(line) }
        } else {
            print("simulated \(f(result.seconds)) s of \(configuration.controller.kind.rawValue) at \(configuration.loop.rateHz) Hz (\(result.statistics.ticks) ticks)")
        }
        let figures = RunFigures(report: report, configuration: configuration, divergence: watch.divergence)
        var problems = result.problems
        if let unmeasured = figures.unmeasuredText {
            // Not a balance: say so first, print no figure as if measured, and fail.
            print(unmeasured)
            if let armed = report.armedAt { print("armed at \(f(armed)) s") }
            print("true pitch within 1°: —; worst true pitch —, roll — (not measured)")
            if figures.saturation.fraction != nil {
                print("drive outputs at a limit \(figures.saturation.text) of the armed time before it")
            }
            if let d = figures.divergence {
                problems.append("the simulated plant diverged at \(String(format: "%.3f", d.time)) s (\(d.cause)): the run is a failure, not a result")
            } else {
                problems.append("non-finite figures (\(figures.nonFinite.joined(separator: ", "))): the run is a failure, not a result")
            }
        } else if !scripted, let armed = report.armedAt {
            print("armed at \(f(armed)) s")
            if let settled = report.pitchWithinOneDegreeFrom {
                print("true pitch within 1° from \(f(settled)) s (\(f(settled - armed)) s after arming) to the end")
            } else {
                print("true pitch not within 1° at the end")
            }
            print("worst true pitch \(RunFigures.text(figures.worstPitch, unit: "°")), roll \(RunFigures.text(figures.worstRoll, unit: "°")) from 2 s after arming")
            if let fraction = figures.saturation.fraction {
                var line = "drive outputs at a limit \(figures.saturation.text) of the armed time"
                if fraction >= Saturation.marginalFraction, report.failsafeAt == nil {
                    line += "; MARGINAL: at a limit ≥ \(Int(100 * Saturation.marginalFraction)) % of it, with no authority to spare that way"
                }
                print(line)
            }
            if configuration.controller.kind == .balance, let end = report.time.last, end > armed {
                // Each direction change of a wheel's drive; at standstill a few a second is
                // balancing, hundreds is chatter (the motors buzz and heat).
                let perWheel = Double(watch.driveReversals) / 2 / (end - armed)
                print("wheel drive reversals \(String(format: "%.1f", perWheel)) /s per wheel while armed")
            }
            if report.drive.driven {
                let d = report.drive
                print("drive script: top speed \(f(d.topTrueSpeed)) m/s (commanded \(f(d.topCommandedSpeed))); after settling: "
                    + "speed error worst \(f(d.worstSpeedError)) m/s, rms \(f(d.rmsSpeedError)) m/s; speed estimate worst \(f(d.worstEstimateError)) m/s off; "
                    + "true pitch worst \(f(d.worstLeanError))° from the setpoint's lean")
            }
        } else if !scripted {
            print("never armed (see safety.arm_tilt_deg, loop.gyroscope_bias_time and the filter's start-up)")
        }
        if let plot {
            let t = report.time
            let gimbalNote = [report.truePitch, report.estimatedPitch].lazy.compactMap {
                GimbalLockNote.text(time: t, pitchDegrees: $0, suggestion: "the pitch panel is the one to trust there")
            }.first
            if let gimbalNote { printError("poise: note: \(gimbalNote)") }
            var panels = [
                PlotPanel.comparison(title: "pitch", yLabel: "pitch (°)", x: t, estimate: report.estimatedPitch, truth: report.truePitch),
                PlotPanel.comparison(title: gimbalNote.map { "roll — \($0)" } ?? "roll", yLabel: "roll (°)", x: t,
                                     estimate: report.estimatedRoll, truth: report.trueRoll),
            ]
            panels += SimulationOutputPanels.panels(report: report, channels: configuration.outputs)
            panels.append(PlotPanel(title: "arm (0 disarmed, 1 armed, 2 failsafe)", series: [PlotSeries(name: "arm", x: t, y: report.arm)]))
            let svg = SVGPlot(title: "poise simulate: \(loop.config ?? "built-in balancing robot")", xLabel: "s", panels: panels).render()
            do {
                try OutputFile.write(svg, to: plot)
                if plot != "-" { printError("poise: wrote \(panels.count) panels to \(plot)") }
            } catch { problems.append(error.description) }
        }
        if !problems.isEmpty { throw CLIError(problems: problems) }
    }
}
