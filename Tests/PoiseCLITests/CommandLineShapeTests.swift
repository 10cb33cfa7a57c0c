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

    @Test func aMistypedCommandGetsASuggestion() throws {
        let run = try poise(["syth", "--motion", "demo"])
        #expect(run.status == 64)
        #expect(run.error.hasPrefix("Error: unknown command 'syth'; did you mean 'synth'?\n"), "\(run.error)")
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
