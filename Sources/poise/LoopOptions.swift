import ArgumentParser

/// The options `poise run`, `poise record` and `poise simulate` share.
struct LoopOptions: ParsableArguments {
    @Option(help: "Configuration file (default: the built-in simulated balancing robot, configs/sim-balancing-robot.yaml).")
    var config: String?

    // `.unconditional`: `--duration -1` is a wrong value to explain, not a missing one.
    @Option(parsing: .unconditional, help: "Stop cleanly after this many seconds (simulate: simulated seconds, default 10).")
    var duration: Double?

    @Flag(help: "Print only errors, warnings and results (no status line, periodic log or arming transitions).")
    var quiet = false

    func validate() throws {
        if let duration, !(duration.isFinite && duration > 0) {
            throw ValidationError("--duration must be a positive number of seconds, not \(duration)")
        }
    }
}
