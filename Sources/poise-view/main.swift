import ArgumentParser
import Foundation

// `poise view` runs this program (found next to `poise`). Runtime failures print
// `poise view: message` and exit 1; usage errors keep ArgumentParser's usage text and status.
// `--help` parses to ArgumentParser's help command, not to a ViewCommand: run whatever parsed.
var command: ParsableCommand
do {
    command = try ViewCommand.parseAsRoot()
} catch {
    ViewCommand.exit(withError: error)
}
do {
    try command.run()
} catch let error as ValidationError {
    FileHandle.standardError.write(Data("poise view: \(error.message)\n".utf8))
    exit(1)
} catch where !String(reflecting: type(of: error)).hasPrefix("ArgumentParser.") && !(error is ExitCode) {
    FileHandle.standardError.write(Data("poise view: \(error)\n".utf8))
    exit(1)
} catch {
    ViewCommand.exit(withError: error)
}
