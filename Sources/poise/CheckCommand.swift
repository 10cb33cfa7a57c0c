import ArgumentParser
import Foundation
import PoiseConfig
import PoiseReplay
import PoiseRun
import PoiseSchedules
import PoiseSettings

/// `poise check`: validates configuration files, or prints the documented defaults.
struct CheckCommand: PoiseCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a configuration file and report every problem with its line.",
        discussion: """
            Prints `FILE: ok` for each valid file. Prints every problem to standard error as \
            `FILE:LINE: key: message (allowed: …)` and exits 1 if any file is invalid. Keys left out \
            take their defaults; `--print-defaults` shows them all, with documentation.

            Examples:
              poise check boards/raspberry-pi-mpu9250.yaml
              poise check --print-defaults > poise.yaml
            """)

    @Argument(help: "The YAML configuration files to check.")
    var files: [String] = []

    @Flag(help: "Print the full default configuration, with every key documented, and exit.")
    var printDefaults = false

    @Flag(help: "Print the key reference as a Markdown table, as in docs/config.md, and exit.")
    var printReference = false

    @Flag(help: "Print the ground station's MAVLink parameters (name, key, unit) as a Markdown table, as in docs/telemetry.md, and exit.")
    var printParameters = false

    func validate() throws {
        if !printDefaults && !printReference && !printParameters && files.isEmpty {
            throw ValidationError("Give a configuration FILE to check, or --print-defaults.")
        }
    }

    func execute() throws {
        if printDefaults {
            print(ConfigWriter.defaultsYAML, terminator: "")
            return
        }
        if printReference {
            print(ConfigReference.markdown, terminator: "")
            return
        }
        if printParameters {
            print(ParameterTable().markdownTable(), terminator: "")
            return
        }
        // Every file is checked; the problems of all of them are reported together.
        var problems: [String] = []
        for file in files {
            do {
                let configuration = try PoiseConfiguration.load(path: file)
                if let text = try? PoiseConfiguration.readText(path: file) {
                    for note in ConfigParser.deprecations(text: text, file: file) { printError(note.description) }
                    for note in PlantPlausibility.warnings(text: text, file: file) { printError(note.description) }
                }
                // The files the configuration refers to, checked as `run` checks them.
                do { _ = try SetpointSchedule.forConfiguration(configuration, configPath: file) } catch {
                    problems.append("\(file): controller.quad.setpoint_file: \(error)")
                    continue
                }
                do { _ = try DriveSchedule.forConfiguration(configuration, configPath: file) } catch {
                    problems.append("\(file): controller.balance.setpoint_file: \(error)")
                    continue
                }
                // An empty file is valid YAML, but "ok" would hide a file that was never
                // written (a failed copy, the wrong path in a script).
                if let data = FileManager.default.contents(atPath: file),
                   String(decoding: data, as: UTF8.self).split(separator: "\n").allSatisfy({ line in
                       let text = line.drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" })
                       return text.isEmpty || text.hasPrefix("#")
                   }) {
                    problems.append("\(file):1: empty configuration: it sets nothing, so every key would take its default "
                        + "(write `{}` if that is what you mean)")
                    continue
                }
                print("\(file): ok")
            } catch {
                problems.append(error.description)
            }
        }
        if !problems.isEmpty { throw CLIError.asIs(problems.joined(separator: "\n")) }
    }
}
