import ArgumentParser
import Foundation

/// `poise view` is a program of its own, `poise-view`, installed next to `poise`: the web
/// server library it uses (and the TLS stack that library's networking links) would
/// otherwise be loaded into every `poise run` on the board. This command takes every
/// argument after `view` as it is, `--help` included, and hands them to it.
struct ViewCommand: PoiseCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Show the attitude in 3D, live plots and loop health in a web browser.",
        discussion: "Runs the poise-view program next to poise; `poise view --help` shows its options.")

    @Argument(parsing: .captureForPassthrough, help: "Arguments for poise-view (`poise view --help` lists them).")
    var arguments: [String] = []

    func execute() throws { try ViewProgram.replaceThisProcess(arguments: arguments) }
}

enum ViewProgram {
    /// `poise-view` in the directory of the running `poise` (symbolic links resolved).
    static var path: String {
        let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent("poise-view").path
    }

    /// Replaces this process with `poise-view ARGUMENTS` (same pid, so signals reach it).
    static func replaceThisProcess(arguments: [String]) throws -> Never {
        let program = path
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        execv(program, argv)
        let reason = String(cString: strerror(errno))
        throw CLIError("`poise view` runs \(program), which cannot be started (\(reason)); "
            + "build both programs with `swift build -c release` (as scripts/run does), or copy poise-view next to poise")
    }
}
