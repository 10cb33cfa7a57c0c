import Dispatch
import PoiseConfig
import PoiseLoop
import PoiseRun
import PoiseSimulation
import Synchronization

/// What to run: which trials of which spread around which configuration, for how long.
public struct MonteCarloPlan: Sendable {
    public var configuration: PoiseConfiguration
    /// The configuration file (setpoint files are found next to it); nil: the built-in one.
    public var configPath: String?
    public var spread: Spread
    public var baseSeed: Int
    /// The trial numbers to run (all of 0..<N, or the one `--trial K`).
    public var trials: [Int]
    /// Simulated seconds per trial.
    public var duration: Double
    /// Threads; the outcomes do not depend on it.
    public var jobs: Int

    public init(configuration: PoiseConfiguration, configPath: String?, spread: Spread, baseSeed: Int,
                trials: [Int], duration: Double, jobs: Int) {
        self.configuration = configuration
        self.configPath = configPath
        self.spread = spread
        self.baseSeed = baseSeed
        self.trials = trials
        self.duration = duration
        self.jobs = jobs
    }
}

/// The finished (or interrupted) run.
public struct MonteCarloRun: Sendable {
    /// In trial order, whatever the number of threads.
    public var outcomes: [TrialOutcome]
    public var rule: SuccessRule
    /// Simulated seconds of all trials together and the wall-clock time they took.
    public var simulatedSeconds: Double
    public var wallSeconds: Double
    /// The signal that stopped the run early, 0 if none.
    public var signal: Int32
}

public struct MonteCarloError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Runs trials in simulated time on `jobs` threads. Each trial is the ordinary simulated loop
/// (`LoopRunner` with a virtual duration) of its own ``TrialWorld``, sharing nothing with the
/// others, so its outcome depends only on its world: the same for any thread count or order.
public enum MonteCarloRunner {
    public static func run(_ plan: MonteCarloPlan, signals: StopSignals,
                           progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in })
        throws(MonteCarloError) -> MonteCarloRun
    {
        guard let rule = SuccessRule.forConfiguration(plan.configuration) else {
            throw MonteCarloError("--trials needs a controlled plant: `simulation.plant` balancing_robot or quadrotor (or auto with controller.kind balance, quad_x or quad_plus)")
        }
        guard plan.configuration.values.string("board.kind") == "sim" else {
            throw MonteCarloError("--trials runs the simulated board: set `board.kind: sim`")
        }
        let total = plan.trials.count
        let next = Atomic<Int>(0), done = Atomic<Int>(0)
        let results = Mutex<[TrialOutcome?]>(Array(repeating: nil, count: total))
        let failure = Mutex<String?>(nil)
        let start = DispatchTime.now().uptimeNanoseconds
        DispatchQueue.concurrentPerform(iterations: max(1, min(plan.jobs, total))) { _ in
            while !signals.stopRequested, failure.withLock({ $0 == nil }) {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < total else { return }
                do {
                    guard let outcome = try runTrial(plan.trials[index], plan: plan, rule: rule, signals: signals) else { return }
                    results.withLock { $0[index] = outcome }
                    progress(done.add(1, ordering: .relaxed).newValue, total)
                } catch {
                    failure.withLock { if $0 == nil { $0 = "\(error)" } }
                }
            }
        }
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        if let message = failure.withLock({ $0 }) { throw MonteCarloError(message) }
        let outcomes = results.withLock { $0.compactMap { $0 } }
        return MonteCarloRun(outcomes: outcomes, rule: rule, simulatedSeconds: Double(outcomes.count) * plan.duration,
                             wallSeconds: wall, signal: signals.stopRequested ? max(signals.signal, 1) : 0)
    }

    /// One trial; nil when a stop request cut it short.
    static func runTrial(_ trial: Int, plan: MonteCarloPlan, rule: SuccessRule, signals: StopSignals) throws(MonteCarloError) -> TrialOutcome? {
        let world: TrialWorld
        do { world = try TrialWorld(trial: trial, baseSeed: plan.baseSeed, spread: plan.spread, base: plan.configuration) } catch {
            throw MonteCarloError(error.description)
        }
        var options = RunOptions(signals: signals)
        options.virtualDuration = plan.duration
        options.quiet = true
        options.handlesSignals = false
        options.configPath = plan.configPath
        let result: RunResult
        // The trial's own watch on this thread: its plant reports a divergence there.
        let watch = SimulationWatch()
        do {
            result = try SimulationWatch.$current.withValue(watch) { () throws(RunError) -> RunResult in
                try LoopRunner.run(world.configuration, options: options)
            }
        } catch {
            throw MonteCarloError("trial \(trial): \(error)")
        }
        if result.signal != 0 || signals.stopRequested { return nil }
        if !result.problems.isEmpty { throw MonteCarloError("trial \(trial): " + result.problems.joined(separator: "; ")) }
        guard let report = result.report else { throw MonteCarloError("trial \(trial): the simulated run made no report") }
        return TrialOutcome(world: world, report: report, rule: rule, divergence: watch.divergence)
    }
}
