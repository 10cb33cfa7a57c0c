import Testing
import Foundation
import PoiseConfig

/// One rule for "off": 0 turns a feature off, even where 0 is below the working range; the
/// old switch beside a number still loads, noted as deprecated.
@Suite struct OffRuleTests {
    @Test func zeroTurnsTheHardIronEstimationOff() throws {
        let off = try PoiseConfiguration.parse(text: "filter:\n  poise:\n    hard_iron_time_constant: 0\n", file: "t.yaml")
        #expect(!off.filter.poise.hardIronEstimation)
        #expect(off.filter.poise.hardIronTimeConstant == PoiseConfiguration.default.filter.poise.hardIronTimeConstant)
        #expect(PoiseConfiguration.default.filter.poise.hardIronEstimation)
    }

    @Test func belowTheRangeButNotZeroIsStillAnError() {
        #expect(throws: ConfigErrors.self) {
            try PoiseConfiguration.parse(text: "filter:\n  poise:\n    hard_iron_time_constant: 0.2\n", file: "t.yaml")
        }
        do {
            _ = try PoiseConfiguration.parse(text: "filter:\n  poise:\n    hard_iron_time_constant: 0.2\n", file: "t.yaml")
        } catch {
            #expect(error.description == "t.yaml:3: filter.poise.hard_iron_time_constant: `0.2` is out of range (allowed: 0 (off), 0.5…600 s)")
        }
    }

    @Test func theOldSwitchStillLoadsAndIsNoted() throws {
        let text = "filter:\n  poise:\n    hard_iron_estimation: false\n"
        let old = try PoiseConfiguration.parse(text: text, file: "t.yaml")
        let new = try PoiseConfiguration.parse(text: "filter:\n  poise:\n    hard_iron_time_constant: 0\n", file: "t.yaml")
        #expect(old.filter.poise.hardIronEstimation == new.filter.poise.hardIronEstimation)
        let notes = ConfigParser.deprecations(text: text, file: "t.yaml")
        #expect(notes.map(\.line) == [3])
        #expect(notes.first?.key == "filter.poise.hard_iron_estimation")
        #expect(ConfigParser.deprecations(text: "filter:\n  poise:\n    hard_iron_time_constant: 0\n", file: "t.yaml").isEmpty)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: poiseExecutable)))
    func checkPrintsTheNoteAndAccepts() throws {
        let path = try temporaryFile("old.yaml", contents: "filter:\n  poise:\n    hard_iron_estimation: false\n")
        let result = try runPoise(["check", path])
        #expect(result.status == 0)
        #expect(result.standardOutput == "\(path): ok\n")
        #expect(result.standardError.contains("\(path):3: filter.poise.hard_iron_estimation: Deprecated: write hard_iron_time_constant: 0"))
    }
}
