#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PoiseTraces

/// The command line of `poise-board`, for its thin `main`: parses the arguments, runs the
/// command and settles its outcome as `poise` does — trace warnings first, then an
/// interruption (exit 128 + signal), then an error (`poise-board: message`, exit 1) or a
/// usage error (the message and the usage, exit 64).
public enum BoardCommand {
    public static let usage = """
        usage: poise-board replay TRACE [--config COMPILED] [-o OUT] [--quiet]

          replay TRACE   Run a trace (CSV or binary, - for standard input) and write byte for
                         byte what `poise replay TRACE` writes: a sensor trace through the
                         default filter (t,qw,qx,qy,qz,roll,pitch,yaw rows), a `poise run`
                         recording through the loop's whole tick (the recording's format).
          --config       The recording's compiled configuration (`poise compile` on the host).
          -o, --output   Output file (- for standard output, the default).
          --quiet        Accepted for `poise replay`'s command line; nothing else is printed.
        """

    /// What the arguments ask for.
    enum Parsed: Equatable {
        case help
        case replay(trace: String, output: String, config: String? = nil)
    }

    /// A usage error's message.
    struct UsageError: Error, Equatable { var message: String }

    /// Parses the arguments after the program name.
    static func parse(_ arguments: [String]) throws(UsageError) -> Parsed {
        guard let command = arguments.first else { throw UsageError(message: "missing command") }
        if command == "-h" || command == "--help" || command == "help" { return .help }
        guard command == "replay" else { throw UsageError(message: "unknown command '\(command)'") }
        var trace: String? = nil
        var output = "-"
        var config: String? = nil
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "-h" || argument == "--help" { return .help }
            if argument == "--quiet" { continue }
            if argument == "-o" || argument == "--output" {
                guard index < arguments.count else { throw UsageError(message: "missing value for '\(argument)'") }
                output = arguments[index]
                index += 1
            } else if argument == "--config" {
                guard index < arguments.count else { throw UsageError(message: "missing value for '\(argument)'") }
                config = arguments[index]
                index += 1
            } else if argument.hasPrefix("--config=") {
                config = String(argument.dropFirst("--config=".count))
            } else if argument.hasPrefix("--output=") {
                output = String(argument.dropFirst("--output=".count))
            } else if argument.hasPrefix("-") && argument != "-" {
                throw UsageError(message: "unknown option '\(argument)'")
            } else if trace == nil {
                trace = argument
            } else {
                throw UsageError(message: "unexpected argument '\(argument)'")
            }
        }
        guard let trace else { throw UsageError(message: "missing TRACE") }
        if output.isEmpty { throw UsageError(message: "empty output name") }
        if config?.isEmpty == true { throw UsageError(message: "empty --config name") }
        return .replay(trace: trace, output: output, config: config)
    }

    /// Runs the command the arguments (after the program name) give; returns the exit status.
    public static func run(_ arguments: [String]) -> Int32 {
        let parsed: Parsed
        do { parsed = try parse(arguments) } catch {
            printError("poise-board: \(error.message)\n\(usage)")
            return 64
        }
        switch parsed {
        case .help:
            var text = usage + "\n"
            text.withUTF8 { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            return 0
        case .replay(let trace, let output, let config):
            Interruption.install()
            var failure: TraceError? = nil
            do { _ = try BoardReplay.run(trace: trace, output: output, config: config) } catch { failure = error }
            for warning in TraceWarnings.take() { printError("poise-board: warning: \(warning)") }
            if Interruption.requested {
                printError("poise-board: \(Interruption.message)")
                return 128 + Interruption.signalNumber
            }
            if let failure {
                printError("poise-board: \(failure.description)")
                return 1
            }
            return 0
        }
    }

    /// Runs the command and exits with its status.
    public static func main(_ arguments: [String]) -> Never {
        exit(run(arguments))
    }

    /// One line on standard error.
    static func printError(_ message: String) {
        var line = message + "\n"
        line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
