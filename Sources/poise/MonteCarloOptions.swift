import ArgumentParser
import Foundation

/// `poise simulate`'s Monte-Carlo options: how many worlds, drawn from which spread, on how
/// many threads, reported how.
struct MonteCarloOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Run this many trials, each a world drawn from the spread (docs/simulation.md, Monte-Carlo).")
    var trials: Int?

    @Option(parsing: .unconditional, help: "Run trial K alone (the same world and outcome as trial K among --trials N).")
    var trial: Int?

    @Option(help: "The spread file: configuration keys and how each trial draws them (default: the plant's built-in spread; see --print-spread).")
    var spread: String?

    @Option(parsing: .unconditional, help: "Threads for the trials (default: the number of cores). The report does not depend on it.")
    var jobs: Int?

    @Option(parsing: .unconditional, help: "The base seed each trial's seed is derived from (default: simulation.seed); without --trials, simulation.seed itself.")
    var seed: Int?

    @Option(parsing: .unconditional, help: "Run only part I of K of --trials N (I from 0; trials I, I+K, I+2K…) and print that part's figures for --merge instead of a report (docs/simulation.md, sweeps beyond one machine).")
    var shard: String?

    @Option(parsing: .upToNextOption, help: "Merge the parts' files (--shard I/K's output) into the report of the whole --trials N run, byte for byte; give the parts' own --config, --spread, --seed, --duration and --trials.")
    var merge: [String] = []

    @Flag(help: "Print the Monte-Carlo report as JSON (each trial on a line of its own).")
    var json = false

    @Flag(help: "Print the spread --trials would use (the plant's built-in one without --spread) and exit.")
    var printSpread = false

    var isMonteCarlo: Bool { trials != nil || trial != nil }

    func validate() throws {
        if let trials, !(1...100_000).contains(trials) { throw ValidationError("--trials: 1…100000, not \(trials)") }
        if let trial {
            guard trial >= 0 else { throw ValidationError("--trial: a trial number ≥ 0, not \(trial)") }
            if let trials, trial >= trials { throw ValidationError("--trial \(trial) is not among --trials \(trials) (0…\(trials - 1))") }
        }
        if let jobs, !(1...1024).contains(jobs) { throw ValidationError("--jobs: 1…1024, not \(jobs)") }
        if let seed, !(0...Int(Int32.max)).contains(seed) { throw ValidationError("--seed: 0…\(Int32.max), not \(seed)") }
        if shard != nil || !merge.isEmpty {
            let option = shard != nil ? "--shard" : "--merge"
            guard trials != nil else { throw ValidationError("\(option) is part of a sweep: give the sweep's --trials N") }
            if trial != nil { throw ValidationError("\(option) and --trial: run trial K alone with --trial K only") }
            if shard != nil && !merge.isEmpty { throw ValidationError("--shard runs a part and --merge joins the parts: give one") }
            if shard != nil && json { throw ValidationError("--shard prints the part's figures for --merge; --json goes with --merge") }
            if !merge.isEmpty && jobs != nil { throw ValidationError("--merge runs no trial: --jobs is for the parts") }
        }
        if !isMonteCarlo && !printSpread {
            if json { throw ValidationError("--json reports a Monte-Carlo run: add --trials N (or --trial K)") }
            if spread != nil { throw ValidationError("--spread is for a Monte-Carlo run: add --trials N (or --trial K)") }
            if jobs != nil { throw ValidationError("--jobs is for a Monte-Carlo run: add --trials N") }
        }
    }
}
