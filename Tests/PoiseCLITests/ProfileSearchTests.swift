import Foundation
import Testing

/// Board profiles are found from the real executable, not from how the shell named it.
@Suite(.enabled(if: poiseIsBuilt, "needs .build/debug/poise: run `swift build` first"))
struct ProfileSearchTests {
    /// `poise` run from PATH in another folder (as after `scripts/install-service`, where an
    /// interactive `poise check /etc/poise/poise.yaml` failed while the service worked): the
    /// profile a repository config names resolves from the executable's own tree.
    @Test func aProfileIsFoundWhenPoiseRunsFromPATH() throws {
        let home = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let config = home.appending(path: "robot.yaml")
        try "board:\n  profile: raspberry-pi-4\n".write(to: config, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["poise", "check", config.path]
        process.currentDirectoryURL = home
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = URL(fileURLWithPath: poisePath).deletingLastPathComponent().path + ":/usr/bin:/bin"
        process.environment = environment
        let errors = Pipe(), output = Pipe()
        process.standardError = errors
        process.standardOutput = output
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        _ = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
    }

    /// A profile that exists nowhere: the error names every folder looked in.
    @Test func aMissingProfileNamesEveryFolderLookedIn() throws {
        let home = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let config = home.appending(path: "robot.yaml")
        try "board:\n  profile: no-such-board\n".write(to: config, atomically: true, encoding: .utf8)
        let run = try poise(["check", config.path])
        #expect(run.status != 0)
        #expect(run.error.contains(home.path + ", " + home.appending(path: "boards").path))
        #expect(run.error.contains(repositoryRoot.appending(path: "boards").standardizedFileURL.path))
        #expect(run.error.contains("/etc/poise/boards"))
    }
}
