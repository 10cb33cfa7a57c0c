import ArgumentParser
import Foundation
import PoiseConfig
import PoiseLoop
import PoiseMonteCarlo
import PoiseRun
import PoiseTraces

/// `poise simulate --trials N`: parsing and printing only; the trials are PoiseMonteCarlo's.
extension SimulateCommand {
    func executeMonteCarlo(_ configuration: PoiseConfiguration) throws {
        let (spread, spreadText) = try loadSpread(configuration)
        if monteCarlo.printSpread { return }
        var trials = Array(0..<(monteCarlo.trials ?? 1))
        if let trial = monteCarlo.trial { trials = [trial] }
        let baseSeed = monteCarlo.seed ?? configuration.simulation.seed
        let shard: Shard?
        do { shard = try monteCarlo.shard.map { text throws(MonteCarloError) in try Shard(parsing: text) } } catch { throw CLIError.asIs(error.description) }
        if let shard, shard.count > trials.count {
            throw CLIError.asIs("--shard \(shard.text): more parts than the \(trials.count) trials; give K ≤ \(trials.count)")
        }
        let sweep = ShardFile.fingerprint(configuration: try loop.config.map(readTextFile) ?? BuiltInConfiguration.text,
                                          spread: spreadText, baseSeed: baseSeed, duration: duration, trials: trials.count)
        let plan = MonteCarloPlan(configuration: configuration, configPath: loop.config, spread: spread, baseSeed: baseSeed,
                                  trials: shard?.trials(of: trials.count) ?? trials, duration: duration,
                                  jobs: monteCarlo.jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        if let plot { try OutputFile(path: plot).discard() }
        let run: MonteCarloRun
        if !monteCarlo.merge.isEmpty {
            let files = try monteCarlo.merge.map { (name: $0, text: try readTextFile($0)) }
            do { run = try ShardFile.merge(files, plan: plan, fingerprint: sweep) } catch { throw CLIError.asIs(error.description) }
        } else {
            StopSignals.blockInProcess()
            let signals = StopSignals()
            signals.start(onReload: {})
            let progress = ProgressBar(total: plan.trials.count, enabled: !loop.quiet && plan.trials.count > 1)
            do { run = try MonteCarloRunner.run(plan, signals: signals) { done, _ in progress.update(done) } } catch {
                progress.finish()
                throw CLIError(error.description)
            }
            progress.finish()
        }
        if let shard { return try finishShard(shard, run: run, plan: plan, trials: trials.count, sweep: sweep) }
        // Ctrl-C: the finished trials are reported, marked PARTIAL; none finished, no report.
        let interruption: (name: String, exit: ExitCode)? = run.signal == 0 ? nil
            : (run.signal == SIGTERM ? "SIGTERM" : "SIGINT", ExitCode(128 + (run.signal == SIGTERM ? SIGTERM : SIGINT)))
        if let interruption, run.outcomes.isEmpty {
            printError("poise: interrupted by \(interruption.name) before any of the \(trials.count) trials finished; no report")
            throw interruption.exit
        }
        var prefix = ["poise", "simulate"]
        if let config = loop.config { prefix += ["--config", config] }
        if let file = monteCarlo.spread { prefix += ["--spread", file] }
        prefix += ["--seed", String(baseSeed), "--duration", Self.number(duration)]
        var report = MonteCarloReport(plan: plan, run: run, commandPrefix: prefix)
        if let interruption { report.partial = (interruption.name, trials.count) }
        print(monteCarlo.json ? report.json : report.text, terminator: "")
        if let trial = monteCarlo.trial, !monteCarlo.json, let outcome = run.outcomes.first {
            let values = outcome.drawn.map { (path: $0.path, value: $0.value) } + [(path: "simulation.seed", value: ConfigValue.integer(outcome.seed))]
            // The whole file with the drawn keys set: a snippet pasted into a file that has
            // its own `simulation:` section would be a duplicate key.
            let source = loop.config ?? BuiltInConfiguration.name
            if let original = try? loop.config.map(readTextFile) ?? BuiltInConfiguration.text,
               let world = try? ConfigEditor.setting(values, in: original, file: source) {
                print("trial \(trial)'s world: \(source) with its drawn keys set; save it as a file of its own and run it with --config FILE --plot or --record:")
                print(world, terminator: world.hasSuffix("\n") ? "" : "\n")
            } else {
                print("trial \(trial)'s world as configuration keys (merge them into \(source)'s own sections), to run it with --plot or --record:")
                print(ConfigEditor.snippet(values), terminator: "")
            }
        }
        // Wall-clock speed varies from run to run, so it is not part of the report.
        let rate = run.wallSeconds > 0 ? run.simulatedSeconds / run.wallSeconds : 0
        if !loop.quiet, !monteCarlo.merge.isEmpty {
            printError("poise: merged \(monteCarlo.merge.count) shard\(monteCarlo.merge.count == 1 ? "" : "s"): \(run.outcomes.count) trials")
        } else if !loop.quiet {
            printError("poise: \(run.outcomes.count) trial\(run.outcomes.count == 1 ? "" : "s"), \(Self.number(run.simulatedSeconds)) simulated s in \(String(format: "%.1f", run.wallSeconds)) s: \(String(format: "%.1f", rate)) simulated s per second on \(min(plan.jobs, trials.count)) thread\(min(plan.jobs, trials.count) == 1 ? "" : "s")")
        }
        if let plot, interruption != nil, plot != "-", !overwrite, FileManager.default.fileExists(atPath: plot) {
            printError("poise: \(plot) kept as it was: a PARTIAL run does not replace an earlier plot (--overwrite does)")
        } else if let plot {
            let title = (interruption == nil ? "" : "PARTIAL (\(run.outcomes.count) of \(trials.count)): ")
                + "poise simulate --trials \(run.outcomes.count): \(loop.config ?? "built-in balancing robot"), \(spread.name)"
            let svg = MonteCarloPlot.svg(report, title: title)
            do { try OutputFile.write(svg, to: plot) } catch { throw CLIError(error.description) }
            if plot != "-" { printError("poise: wrote the \(run.outcomes.count) trials' outcomes to \(plot)") }
        }
        if let interruption {
            printError("poise: interrupted by \(interruption.name) after \(run.outcomes.count) of \(trials.count) trials; the report is PARTIAL")
            throw interruption.exit
        }
    }

    /// The spread file, or the plant's built-in spread (printed with --print-spread).
    func loadSpread(_ configuration: PoiseConfiguration) throws -> (spread: Spread, text: String) {
        let name: String, text: String
        if let path = monteCarlo.spread {
            (name, text) = (path, try readTextFile(path))
        } else {
            (name, text) = DefaultSpread.text(for: configuration)
        }
        if monteCarlo.printSpread { print(text, terminator: "") }
        do { return (try SpreadParser.parse(text: text, file: name, configuration: configuration), text) } catch {
            throw CLIError.asIs(error.description)
        }
    }

    /// A part of a sweep: its figures on standard output for `--merge`, or, cut short, nothing
    /// (a part missing trials is no part: the merge would refuse it).
    func finishShard(_ shard: Shard, run: MonteCarloRun, plan: MonteCarloPlan, trials: Int, sweep: String) throws {
        if run.signal != 0 {
            let name = run.signal == SIGTERM ? "SIGTERM" : "SIGINT"
            printError("poise: shard \(shard.text) interrupted by \(name) after \(run.outcomes.count) of its \(plan.trials.count) trials; "
                + "nothing written (run the shard again)")
            throw ExitCode(128 + (run.signal == SIGTERM ? SIGTERM : SIGINT))
        }
        print(ShardFile.text(run.outcomes, shard: shard, trials: trials, fingerprint: sweep), terminator: "")
        if !loop.quiet {
            printError("poise: shard \(shard.text): \(run.outcomes.count) of the \(trials) trials in \(String(format: "%.1f", run.wallSeconds)) s; "
                + "merge every shard's output with the same options and --merge FILE…")
        }
    }

    static func number(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : "\(x)" }
}
