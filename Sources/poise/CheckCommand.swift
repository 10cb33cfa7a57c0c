import ArgumentParser
import PoiseConfig

import Foundation

/// `poise check`: validates a configuration file, or prints the commented defaults.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a configuration file and report every problem with its line.",
        discussion: """
            Prints `FILE: ok` and exits 0 when the file is valid. Otherwise prints every problem \
            to standard error as `FILE:LINE: key: message (allowed: …)` and exits 1. Keys left out \
            take their defaults; `--print-defaults` shows them all, with documentation.

            Examples:
              poise check boards/raspberry-pi-mpu9250.yaml
              poise check --print-defaults > poise.yaml
            """)

    @Argument(help: "The YAML configuration file to check.")
    var file: String?

    @Flag(help: "Print the full default configuration, with every key documented, and exit.")
    var printDefaults = false

    @Flag(help: "Print the key reference as a Markdown table, as in docs/config.md, and exit.")
    var printReference = false

    func validate() throws {
        if !printDefaults && !printReference && file == nil {
            throw ValidationError("Give a configuration FILE to check, or --print-defaults.")
        }
    }

    func run() throws {
        if printDefaults {
            print(ConfigWriter.defaultsYAML, terminator: "")
            return
        }
        if printReference {
            print(ConfigReference.markdown, terminator: "")
            return
        }
        guard let file else { return }
        do {
            _ = try PoiseConfiguration.load(path: file)
            print("\(file): ok")
        } catch {
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
            throw ExitCode(1)
        }
    }
}
