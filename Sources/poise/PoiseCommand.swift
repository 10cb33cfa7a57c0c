import ArgumentParser
import Foundation
import PoiseTraces

/// A `poise` subcommand. ArgumentParser parses and validates it and calls `run()`, which
/// calls `execute()` and then settles the outcome in `CommandOutcome`, the one place where
/// trace warnings are printed, an interruption is reported, standard output's writes are
/// checked and an error becomes its message and exit status.
protocol PoiseCommand: ParsableCommand {
    func execute() throws
    /// The command whose usage a usage error shows (this one).
    static var usageCommand: ParsableCommand.Type { get }
}

extension PoiseCommand {
    static var usageCommand: ParsableCommand.Type { Self.self }

    func run() throws {
        var failure: Error?
        do { try execute() } catch { failure = error }
        try CommandOutcome.settle(failure, of: Self.usageCommand)
    }
}

/// How a command's run ends. What it throws to ArgumentParser is an `ExitCode` (the message
/// already printed) or one of ArgumentParser's own errors, which ArgumentParser reports as
/// usual (help, version, a nested parse's usage error).
enum CommandOutcome {
    /// Prints what `failure` and the run left behind, in this order: the readers' warnings
    /// (a cut-off binary trace), then an interruption (exit 128 + signal, saying what was
    /// kept), then the error: a usage error found while running as `Error:` with the
    /// subcommand's usage (exit 64), any other as `poise: message` (exit 1). A run that
    /// succeeded but could not write its standard output (a full disk) exits 1.
    static func settle(_ failure: Error?, of command: ParsableCommand.Type) throws {
        for warning in TraceWarnings.take() { printError("poise: warning: \(warning)") }
        if Interruption.requested {
            printError("poise: \(Interruption.message)")
            throw ExitCode(128 + Interruption.signalNumber)
        }
        switch failure {
        case nil:
            try checkStandardOutput()
        case let error as ValidationError:
            let name = command == Poise.self ? "poise" : "poise \(command.configuration.commandName ?? "")"
            printError("Error: \(error.message)\nUsage: \(Poise.usageString(for: command))\n"
                + "  See '\(name) --help' for more information.")
            throw ExitCode.validationFailure
        case let error? where String(reflecting: type(of: error)).hasPrefix("ArgumentParser."):
            try checkStandardOutput()
            throw error
        case let error as CLIError:
            printError(error.printsAsIs ? error.description : "poise: \(error.description)")
            throw ExitCode.failure
        case let error?:
            printError("poise: \(error)")
            throw ExitCode.failure
        }
    }

    /// A failed write to standard output (a full disk, /dev/full) is a failure.
    private static func checkStandardOutput() throws {
        let code = StandardOutput.firstError
        guard code != 0 else { return }
        printError("poise: standard output: cannot write: \(String(cString: strerror(code)))")
        throw ExitCode.failure
    }
}
