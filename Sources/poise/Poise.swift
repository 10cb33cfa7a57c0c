import ArgumentParser
import Foundation

@main
struct Poise: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "poise",
        abstract: "Attitude estimation and control for an MPU-9250 on a Linux board.",
        discussion: """
            Start with `poise synth` to make a trace with exact ground truth, `poise replay` to \
            run a filter over it, `poise eval` to score the estimate and `poise plot` to look at \
            it. `poise probe` checks the wiring of a real board; `poise check` a config file.
            """,
        subcommands: [
            CheckCommand.self,
            SynthCommand.self,
            ReplayCommand.self,
            EvalCommand.self,
            ConvertCommand.self,
            PlotCommand.self,
            ProbeCommand.self,
            CalibrateCommand.self,
            PlayCommand.self,
            ViewCommand.self,
        ])

    /// Runs the command; runtime failures print `poise: message` and exit 1, usage errors
    /// keep ArgumentParser's usage text and exit status.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch where isRuntimeError(error) {
            printError("poise: \(error)")
            Foundation.exit(1)
        } catch {
            exit(withError: error)
        }
    }

    private static func isRuntimeError(_ error: Error) -> Bool {
        !(error is ValidationError) && !(error is CleanExit)
            && !(error is ExitCode) && !String(reflecting: type(of: error)).hasPrefix("ArgumentParser.")
    }
}
