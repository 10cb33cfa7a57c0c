import Foundation
import Testing

/// How `poise` parses its command line and reports what is wrong with it: usage errors get
/// ArgumentParser's message and usage and exit 64, whatever the command.
@Suite struct CommandLineShapeTests {
    @Test func viewHelpIsPoiseViewsHelp() throws {
        for arguments in [["view", "--help"], ["help", "view"]] {
            let run = try poise(arguments)
            #expect(run.status == 0, "\(arguments): \(run.error)")
            #expect(run.text.contains("--udp-port"), "\(arguments): \(run.text)")
            #expect(!run.error.contains("Could not cast"))
        }
        // Its own usage errors too.
        let bad = try poise(["view", "--udp-port", "many"])
        #expect(bad.status == 64)
        #expect(bad.error.contains("--udp-port"), "\(bad.error)")
    }

    @Test func helpNamesACommandOrFails() throws {
        let known = try poise(["help", "replay"])
        #expect(known.status == 0)
        #expect(known.text.contains("USAGE: poise replay "), "\(known.text)")
        let unknown = try poise(["help", "foo"])
        #expect(unknown.status == 64)
        #expect(unknown.text.isEmpty)
        #expect(unknown.error.hasPrefix("Error: unknown command 'foo' (commands: check, synth, replay"), "\(unknown.error)")
        let general = try poise(["help"])
        #expect(general.status == 0 && general.text.contains("SUBCOMMANDS"))
        #expect(!general.text.contains("  help "), "the replacement help command is hidden")
    }

    /// Every command the general help lists has its own help both ways, with its usage and
    /// an example (the commands added later — spectrum, gamepad, tune — too).
    @Test func everyListedCommandHasItsHelpBothWays() throws {
        let general = try poise(["--help"]).text
        let listed = general.split(separator: "\n").drop { !$0.hasPrefix("SUBCOMMANDS") }.dropFirst()
            .compactMap { line -> String? in
                guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
                return line.split(separator: " ").first.map(String.init)
            }
            .filter { $0.allSatisfy(\.isLowercase) }
        #expect(listed.count >= 17 && ["spectrum", "gamepad", "simulate", "tune"].allSatisfy(listed.contains), "\(listed)")
        for name in listed {
            for arguments in [["help", name], [name, "--help"]] {
                let run = try poise(arguments)
                #expect(run.status == 0, "\(arguments): \(run.error)")
                #expect(run.text.contains("USAGE: poise \(name)"), "\(arguments): \(run.text.prefix(200))")
                #expect(run.text.contains("poise \(name) ") && run.text.contains("OPTIONS:"), "\(arguments)")
            }
        }
    }

    @Test func aMistypedCommandGetsASuggestion() throws {
        let run = try poise(["syth", "--motion", "demo"])
        #expect(run.status == 64)
        #expect(run.error.hasPrefix("Error: unknown command 'syth'; did you mean 'synth'?\n"), "\(run.error)")
        // Equally near two commands: both are named, not the first in the list.
        for arguments in [["tun"], ["help", "tun"]] {
            let tie = try poise(arguments)
            #expect(tie.status == 64)
            #expect(tie.error.hasPrefix("Error: unknown command 'tun'; did you mean 'run' or 'tune'?\n"), "\(tie.error)")
        }
        for (typed, meant) in [("gamepd", "gamepad"), ("spectum", "spectrum"), ("simulat", "simulate")] {
            #expect(try poise([typed]).error.hasPrefix("Error: unknown command '\(typed)'; did you mean '\(meant)'?\n"))
        }
        let far = try poise(["frobnicate"])
        #expect(far.status == 64)
        #expect(far.error.contains("unknown command 'frobnicate' (commands: "), "\(far.error)")
    }

    @Test(arguments: [["run"], ["record", "x.csv"], ["simulate"]])
    func aNegativeDurationMustBePositive(_ command: [String]) throws {
        let run = try poise(command + ["--duration", "-1"])
        #expect(run.status == 64)
        #expect(run.error.hasPrefix("Error: --duration must be a positive number of seconds, not -1.0\n"), "\(run.error)")
        #expect(run.error.contains("Usage: poise \(command[0]) "))
        #expect(!run.error.contains("Missing value"))
    }

    /// Options that take words (files, hosts, names, choices); every other option takes a
    /// number or numbers, and a number may be negative.
    static let wordOptions: Set<String> = [
        "config", "script", "output", "plot", "record", "stats-json", "spread", "truth", "title", "telemetry",
        "trace", "bus", "device", "directory", "name", "host", "udp-host", "plotjuggler", "columns", "state-dir", "save-to",
        "allow-host", "signing-key-file", "merge",
    ]

    /// Every option of `program` (from ArgumentParser's own description of the command line)
    /// as (command, option, parsing strategy, choices).
    func options(of program: String) throws -> [(command: [String], name: String, strategy: String, choices: Bool)] {
        let dump = try runBuilt(program, ["--experimental-dump-help"])
        #expect(dump.status == 0)
        let root = try #require(try JSONSerialization.jsonObject(with: dump.output) as? [String: Any])
        var found: [(command: [String], name: String, strategy: String, choices: Bool)] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["kind"] as? String == "option" {
                let names = (argument["names"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "long" }
                guard let name = names.first?["name"] as? String, argument["shouldDisplay"] as? Bool != false else { continue }
                found.append((path, name, argument["parsingStrategy"] as? String ?? "", argument["allValues"] != nil))
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                walk(sub, path + [sub["commandName"] as? String ?? "?"])
            }
        }
        walk(try #require(root["command"] as? [String: Any]), [])
        return found
    }

    @Test func aNumberOptionTakesANegativeNumber() throws {
        // `--declination -3` (west) used to read as a missing value followed by an option -3.
        var numeric: [String] = []
        for program in [poisePath, builtProgram("poise-view")] {
            for option in try options(of: program) where !option.choices && !Self.wordOptions.contains(option.name) {
                numeric.append("\(option.command.joined(separator: " ")) --\(option.name)")
                #expect(option.strategy.hasPrefix("unconditional"),
                        "\(option.command) --\(option.name) does not take a value starting with '-' (\(option.strategy))")
            }
        }
        #expect(numeric.count >= 30, "\(numeric)")
        // What that means, command by command: the value is read, then judged.
        let directory = try temporaryDirectory()
        let trace = try synthTrace(in: directory)
        #expect(try poise(["replay", trace, "--declination", "-3", "-o", "/dev/null"]).status == 0)
        #expect(try poise(["synth", "--motion", "static", "--heading", "-30", "--hard-iron", "-20,5,3", "-o", "/dev/null"]).status == 0)
        for (arguments, message) in [
            (["simulate", "--trials", "-3"], "Error: --trials: 1…100000, not -3"),
            (["tune", "--amplitude", "-0.5"], "Error: --amplitude must be more than 0 and at most 1, not -0.5"),
            (["gamepad", "--seconds", "-1"], "Error: --seconds must be 0 or more"),
            (["probe", "--board", "sim", "--samples", "-1"], "Error: --samples must be 0 or more, not -1"),
            (["synth", "--motion", "static", "--gyroscope-noise", "-1"], "Error: --gyroscope-noise must be 0 or more, not -1.0"),
            (["view", "--port", "-1"], "'-1'"),
        ] {
            let run = try poise(arguments)
            #expect(run.status == 64, "\(arguments): \(run.error)")
            #expect(run.error.hasPrefix(message) || run.error.contains(message), "\(arguments): \(run.error)")
            #expect(!run.error.contains("Missing value"), "\(arguments): \(run.error)")
        }
    }

    @Test func simulateBoundsItsSimulatedSeconds() throws {
        let run = try poise(["simulate", "--duration", "4000"])
        #expect(run.status == 64)
        #expect(run.error.contains("at most 3600 simulated seconds"), "\(run.error)")
    }

    @Test(arguments: [
        (["replay", "x.csv", "--columns", "gravity,colour"], "'--columns <columns>'"),
        (["replay", "x.csv", "--frame", "sideways"], "xTrueNorthZVertical"),
        (["replay", "x.csv", "--filter", "kalman"], "'complementary'"),
        (["replay", "x.csv", "--mag", "maybe"], "'on' and 'off'"),
        (["synth", "--motion", "dance"], "tumble"),
        (["synth", "--motion", "demo", "--errors", "awful"], "'uncalibrated'"),
        (["probe", "--board", "arduino"], "'linux' and 'sim'"),
        (["calibrate", "compass"], "'mag'"),
        (["convert", "a.csv", "b", "--to", "xml"], "binary"),
    ])
    func aValueOutsideAnOptionsChoicesIsAUsageError(_ arguments: [String], _ choice: String) throws {
        let run = try poise(arguments)
        #expect(run.status == 64, "\(arguments): \(run.error)")
        #expect(run.error.hasPrefix("Error: The value '"), "\(arguments): \(run.error)")
        #expect(run.error.contains(choice), "\(arguments): \(run.error)")
        #expect(run.error.contains("Usage: poise \(arguments[0]) "), "\(arguments): \(run.error)")
    }

    @Test func replayRefusesANorthFrameWithoutTheMagnetometerAsCheckDoes() throws {
        let directory = try temporaryDirectory()
        let trace = try synthTrace(in: directory)
        let replay = try poise(["replay", trace, "--frame", "xTrueNorthZVertical", "--mag", "off", "--quiet"])
        #expect(replay.status == 64)
        #expect(replay.text.isEmpty)
        #expect(replay.error.hasPrefix("Error: `xTrueNorthZVertical` needs the magnetometer fused"), "\(replay.error)")
        let config = directory.appending(path: "c.yaml").path
        try "frame:\n  output: xTrueNorthZVertical\nfilter:\n  magnetometer: false\n".write(toFile: config, atomically: true, encoding: .utf8)
        let check = try poise(["check", config])
        #expect(check.status == 1)
        #expect(check.error.contains("`xTrueNorthZVertical` needs filter.magnetometer: true"), "\(check.error)")
        // The config's frame with the flag that turns the magnetometer off: the same rule.
        try "frame:\n  output: xMagneticNorthZVertical\n".write(toFile: config, atomically: true, encoding: .utf8)
        let fromConfig = try poise(["replay", trace, "--config", config, "--mag", "6d", "--quiet"])
        #expect(fromConfig.status == 64)
        #expect(fromConfig.error.contains("`xMagneticNorthZVertical` needs the magnetometer fused"), "\(fromConfig.error)")
        #expect(try poise(["replay", trace, "--frame", "xTrueNorthZVertical", "--quiet"]).status == 0)
    }

    @Test func theSimulatedChipAnswersOnlyAtItsAddress() throws {
        let run = try poise(["probe", "--board", "sim", "--address", "0x70"])
        #expect(run.status == 1)
        #expect(run.text.contains("60: -- -- -- -- -- -- -- -- 68 --"), "\(run.text)")
        #expect(run.text.contains("70: -- -- -- -- -- -- -- --"), "\(run.text)")
        #expect(run.error.hasPrefix("poise: no device answered at 0x70 on sim"), "\(run.error)")
        #expect(run.error.contains("devices at 0x68"))
        // AD0 high in the configuration: the chip moves to 0x69.
        let directory = try temporaryDirectory()
        let config = directory.appending(path: "c.yaml").path
        try "board:\n  kind: sim\n  address: 0x69\n".write(toFile: config, atomically: true, encoding: .utf8)
        let high = try poise(["probe", "--config", config])
        #expect(high.status == 0, "\(high.error)")
        #expect(high.text.contains("0x69: WHO_AM_I 0x71 → MPU-9250"))
        #expect(try poise(["probe", "--config", config, "--address", "0x68"]).status == 1)
    }
}
