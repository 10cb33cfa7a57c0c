import Testing
import Foundation
import PoiseConfig

/// The `poise` binary `swift build` / `swift test` put next to the sources.
let poiseExecutable = repositoryRoot.appending(path: ".build/debug/poise").path

struct CommandResult {
    var status: Int32
    var standardOutput: String
    var standardError: String
}

func runPoise(_ arguments: [String]) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: poiseExecutable)
    process.arguments = arguments
    let output = Pipe(), error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    // Read before waiting so a full pipe cannot block the child.
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandResult(status: process.terminationStatus,
                         standardOutput: String(decoding: outputData, as: UTF8.self),
                         standardError: String(decoding: errorData, as: UTF8.self))
}

func temporaryFile(_ name: String, contents: String) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appending(path: "poise-check-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appending(path: name)
    try contents.write(to: url, atomically: true, encoding: .utf8)
    return url.path
}

@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: poiseExecutable),
                "needs the built .build/debug/poise: run `swift build` first"))
struct CheckCommandTests {
    @Test func goodFilePrintsOK() throws {
        let path = try temporaryFile("good.yaml", contents: "board:\n  kind: linux\nloop:\n  rate_hz: 100\n")
        let result = try runPoise(["check", path])
        #expect(result.status == 0)
        #expect(result.standardOutput == "\(path): ok\n")
        #expect(result.standardError == "")
    }

    @Test func badFilePrintsEveryErrorToStandardError() throws {
        let path = try temporaryFile("bad.yaml", contents: "board:\n  kind: pi\nloop:\n  rate_hz: 0\n  cpus: 1\n")
        let result = try runPoise(["check", path])
        #expect(result.status == 1)
        #expect(result.standardOutput == "")
        #expect(result.standardError == """
            \(path):2: board.kind: unknown value `pi` (allowed: sim, linux)
            \(path):4: loop.rate_hz: `0` is out of range (allowed: 1…2000 Hz)
            \(path):5: loop.cpus: unknown key; did you mean `cpu`?

            """)
    }

    @Test func missingFileIsReported() throws {
        let result = try runPoise(["check", "/nonexistent/poise.yaml"])
        #expect(result.status == 1)
        #expect(result.standardError == "/nonexistent/poise.yaml: no such file\n")
    }

    @Test func printDefaultsMatchesTheLibraryAndTheShippedExample() throws {
        let result = try runPoise(["check", "--print-defaults"])
        #expect(result.status == 0)
        #expect(result.standardOutput == ConfigWriter.defaultsYAML)
        let example = try String(contentsOf: repositoryRoot.appending(path: "boards/poise.example.yaml"), encoding: .utf8)
        #expect(result.standardOutput == example)
    }

    @Test func noFileIsAUsageError() throws {
        let result = try runPoise(["check"])
        #expect(result.status != 0)
        #expect(result.standardError.contains("Give a configuration FILE to check, or --print-defaults."))
    }
}

extension CheckCommandTests {
    @Test func severalFilesAreCheckedInOneRun() throws {
        let good = try temporaryFile("good.yaml", contents: "loop:\n  rate_hz: 100\n")
        let bad = try temporaryFile("bad.yaml", contents: "loop:\n  rate_hz: 0\n")
        let result = try runPoise(["check", good, bad])
        #expect(result.status == 1)
        #expect(result.standardOutput == "\(good): ok\n")
        #expect(result.standardError == "\(bad):2: loop.rate_hz: `0` is out of range (allowed: 1…2000 Hz)\n")
    }
}
