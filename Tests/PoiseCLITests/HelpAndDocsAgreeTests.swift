import Foundation
import Testing

/// What the docs say agrees with what the program does: the wire-limit tables in README and
/// docs/wiring.md carry the limits `poise check` computes, the help's config path is the
/// unit's, the gyroscope calibration's help says what its prompt says, and usage errors
/// (bad option values, bare `poise`) exit 64 as README says.
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote))
struct HelpAndDocsAgreeTests {
    /// The wire limit `poise check` names for a loop at 2000 Hz on this bus.
    static func checkedWireLimit(clockHz: Int, magnetometer: Bool) throws -> Int {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var config = try poise(["check", "--print-defaults"]).text
        for (key, value) in [("rate_hz", "2000"), ("i2c_clock_hz", "\(clockHz)"),
                             ("magnetometer", magnetometer ? "true" : "false")] {
            config = config.replacing(try Regex("(?m)^  \(key): .*$"), with: "  \(key): \(value)")
        }
        let file = directory.appending(path: "bus.yaml")
        try config.write(to: file, atomically: true, encoding: .utf8)
        let check = try poise(["check", file.path])
        let match = try #require(check.error.firstMatch(of: /its wire limit, (\d+) Hz/), "\(check.error)")
        return Int(match.output.1)!
    }

    /// The rows `| 100 kHz | … |` of a document's tables, as the Hz figures in each cell
    /// (the last number before " Hz", bold or not).
    static func tableRows(_ document: String, clock: String) throws -> [[Int]] {
        let text = try String(contentsOf: repositoryRoot.appending(path: document), encoding: .utf8)
        return text.split(separator: "\n").filter { $0.hasPrefix("| \(clock)") }.map { row in
            row.split(separator: "|").dropFirst().compactMap { cell in
                cell.matches(of: /(\d[\d ]*)\**\s*Hz/).last.map { Int($0.output.1.filter(\.isNumber))! }
            }
        }
    }

    @Test func wireLimitTablesShowWhatCheckComputes() throws {
        for clock in [100_000, 400_000] {
            let alone = try Self.checkedWireLimit(clockHz: clock, magnetometer: false)
            let withMagnetometer = try Self.checkedWireLimit(clockHz: clock, magnetometer: true)
            for document in ["README.md", "docs/wiring.md"] {
                let rows = try Self.tableRows(document, clock: "\(clock / 1000) kHz")
                #expect(!rows.isEmpty, "\(document): no wire-limit row for \(clock / 1000) kHz")
                for row in rows {
                    #expect(Array(row.suffix(2)) == [alone, withMagnetometer],
                            "\(document), \(clock / 1000) kHz: the table says \(row), `poise check` computes \(alone) and \(withMagnetometer) Hz")
                }
            }
        }
        for document in ["README.md", "docs/wiring.md"] {
            let text = try String(contentsOf: repositoryRoot.appending(path: document), encoding: .utf8)
                .replacing(/\s+/, with: " ")
            #expect(text.contains("204 bit periods"), "\(document)")
            #expect(!text.contains("156 bit periods"), "\(document)")
        }
    }

    @Test(arguments: ["run", "safe", "gamepad"])
    func helpNamesTheUnitsConfigPath(_ command: String) throws {
        let unit = try String(contentsOf: repositoryRoot.appending(path: "scripts/poise.service"), encoding: .utf8)
        #expect(unit.contains("--config /etc/poise/poise.yaml"))
        let help = try poise([command, "--help"])
        #expect(help.status == 0)
        #expect(help.text.contains("/etc/poise/poise.yaml"), "\(help.text)")
        #expect(!help.text.contains("/etc/poise.yaml"), "\(help.text)")
    }

    @Test func noDocumentNamesAnotherConfigPath() throws {
        for document in DocumentationTests.documents {
            let text = try String(contentsOf: repositoryRoot.appending(path: document), encoding: .utf8)
            #expect(!text.contains("/etc/poise.yaml"), "\(document)")
        }
    }

    /// The help's stillness time is the prompt's: 400 samples, 2 s at the sim's 200 Hz.
    @Test func gyroscopeCalibrationHelpSaysWhatThePromptSays() throws {
        let help = try poise(["calibrate", "--help"]).text.replacing(/\s+/, with: " ")
        let prompt = try poise(["calibrate", "gyro", "--board", "sim"])  // no stdin: stops at the prompt
        let seconds = try #require(prompt.text.firstMatch(of: /keep it still for ([\d.]+) s/), "\(prompt.text)\(prompt.error)")
        #expect(seconds.output.1 == "2")
        #expect(help.contains("400 samples at the sensor rate, 2 s at 200 Hz, 0.4 s at 1 kHz"), "\(help)")
        #expect(!help.contains("still for 2 s"))
    }

    @Test func aBadOptionValueIsAUsageError() throws {
        let run = try poise(["synth", "--motion", "static", "--disturbance", "10:14"])
        #expect(run.status == 64, "\(run.error)")
        #expect(run.error.contains("--disturbance '10:14'") && run.error.contains("Usage: poise synth"), "\(run.error)")
        let vector = try poise(["synth", "--motion", "static", "--gyroscope-bias", "1,2"])
        #expect(vector.status == 64, "\(vector.error)")
    }

    @Test func barePoisePrintsTheHelpOnStandardErrorAndExits64() throws {
        let bare = try poise([])
        #expect(bare.status == 64)
        #expect(bare.text.isEmpty, "\(bare.text)")
        #expect(bare.error.contains("USAGE: poise <subcommand>") && bare.error.contains("SUBCOMMANDS:"), "\(bare.error)")
        let help = try poise(["--help"])
        #expect(help.status == 0 && help.text.contains("SUBCOMMANDS:"))
    }
}
