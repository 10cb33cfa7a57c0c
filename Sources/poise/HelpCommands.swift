import ArgumentParser

/// `poise help [COMMAND]`: the help of `poise` or of one command. It takes the place of
/// ArgumentParser's built-in `help`, which shows the general help for a name it does not
/// know and exits 0; this one refuses it (exit 64) and suggests the nearest command.
struct HelpTopicCommand: PoiseCommand {
    static let configuration = CommandConfiguration(
        commandName: "help",
        abstract: "Show the help of poise or of one of its commands.",
        shouldDisplay: false)

    @Argument(help: "The command whose help to show.")
    var topic: [String] = []

    func validate() throws {
        guard let name = topic.first else { return }
        guard CommandNames.command(named: name) != nil else { throw ValidationError(CommandNames.unknown(name)) }
        if topic.count > 1 { throw ValidationError("`poise \(name)` has no subcommands; try `poise help \(name)`") }
    }

    func execute() throws {
        guard let name = topic.first, let command = CommandNames.command(named: name) else {
            throw CleanExit.helpRequest(Poise.self)
        }
        // `poise view` is the poise-view program: its help is its own.
        if command == ViewCommand.self { try ViewProgram.replaceThisProcess(arguments: ["--help"]) }
        throw CleanExit.helpRequest(command)
    }
}

/// What runs when the first word names no command (ArgumentParser's default subcommand):
/// `poise` alone shows the help; any other word is refused with the nearest command.
struct UnknownCommand: PoiseCommand {
    static let configuration = CommandConfiguration(commandName: "unknown-command", shouldDisplay: false)
    static var usageCommand: ParsableCommand.Type { Poise.self }

    @Argument(parsing: .captureForPassthrough, help: .private)
    var words: [String] = []

    func execute() throws {
        // Bare `poise` is a usage error like any other: the help on standard error, exit 64
        // (a script whose subcommand variable came out empty must not succeed).
        guard let word = words.first else {
            printError(Poise.helpMessage())
            throw ExitCode.validationFailure
        }
        if word.hasPrefix("-") { throw ValidationError("unknown option '\(word)'") }
        throw ValidationError(CommandNames.unknown(word))
    }
}
