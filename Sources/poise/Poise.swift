import ArgumentParser
import Foundation
import PoiseTraces

/// The version `poise --version` prints.
let poiseVersion = "0.1.0"

@main
struct Poise: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "poise",
        abstract: "Attitude estimation and control for an MPU-9250 on a Linux board.",
        discussion: """
            Start with `poise synth` to make a trace with exact ground truth, `poise replay` to \
            run a filter over it, `poise eval` to score the estimate and `poise plot` to look at \
            it. `poise probe` checks the wiring of a real board; `poise check` a config file; \
            `poise safe` drives every configured output to its safe value.
            """,
        version: poiseVersion,
        subcommands: [
            CheckCommand.self,
            SynthCommand.self,
            ReplayCommand.self,
            EvalCommand.self,
            ConvertCommand.self,
            PlotCommand.self,
            ProbeCommand.self,
            CalibrateCommand.self,
            SafeCommand.self,
            PlayCommand.self,
            ViewCommand.self,
            RunCommand.self,
            SimulateCommand.self,
            RecordCommand.self,
        ])

    /// Runs the command; runtime failures print `poise: message` and exit 1, usage errors
    /// keep ArgumentParser's usage text (the subcommand's) and exit status. This is the one
    /// place where an interruption is reported and standard output's writes are checked.
    static func main() {
        // `poise view …` is another program's command line, help included.
        if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "view" {
            do { try ViewProgram.replaceThisProcess(arguments: Array(CommandLine.arguments.dropFirst(2))) } catch {
                printError("poise: \(error)")
                Foundation.exit(1)
            }
        }
        var command: ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exit(withError: error)
        }
        do {
            try command.run()
        } catch let error as ValidationError {
            reportWarningsAndInterruption()
            printError("Error: \(error.message)\nUsage: \(usageString(for: type(of: command)))\n"
                + "  See 'poise \(type(of: command).configuration.commandName ?? "") --help' for more information.")
            Foundation.exit(ExitCode.validationFailure.rawValue)
        } catch where isRuntimeError(error) {
            reportWarningsAndInterruption()
            printError("poise: \(error)")
            Foundation.exit(1)
        } catch {
            reportWarningsAndInterruption()
            finishStandardOutput()
            exit(withError: error)
        }
        reportWarningsAndInterruption()
        finishStandardOutput()
    }

    /// After SIGINT/SIGTERM: one line saying what was kept, exit 128 + signal. Warnings the
    /// readers collected (a cut-off binary trace) are printed first, whatever the outcome.
    private static func reportWarningsAndInterruption() {
        for warning in TraceWarnings.take() { printError("poise: warning: \(warning)") }
        guard Interruption.requested else { return }
        printError("poise: \(Interruption.message)")
        Foundation.exit(128 + Interruption.signalNumber)
    }

    /// A failed write to standard output (a full disk, /dev/full) exits 1.
    private static func finishStandardOutput() {
        let code = StandardOutput.firstError
        guard code != 0 else { return }
        printError("poise: standard output: cannot write: \(String(cString: strerror(code)))")
        Foundation.exit(1)
    }

    private static func isRuntimeError(_ error: Error) -> Bool {
        !(error is ValidationError) && !(error is CleanExit)
            && !(error is ExitCode) && !String(reflecting: type(of: error)).hasPrefix("ArgumentParser.")
    }
}
