import Foundation
import Testing

/// scripts/check-skips, which ends every scripts/test run: it lists each skip with its reason
/// and, under CI=true, fails on a reason scripts/allowed-skips.txt does not allow.
@Suite struct SkipCheckTests {
    /// A `testSkipped` record of swift test's event stream (version 0).
    static func skipped(_ id: String, _ reason: String?) -> String {
        let comments = reason.map { "\"_comments\":[\"\($0)\"]," } ?? ""
        return "{\"kind\":\"event\",\"payload\":{\(comments)\"kind\":\"testSkipped\",\"messages\":[],\"testID\":\"\(id)\"},\"version\":0}"
    }

    static let allowed = skipped("PoiseTracesTests.SharedTraceTests/readsEveryRow(_:)/SharedTraceTests.swift:30:6",
                                 "../shared/traces is absent (the BROAD recordings are not in users' clones)")
    static let browser = [skipped("PoiseViewTests.BrowserTests", "chromium is not installed (scripts/setup-test-browser installs it)"),
                          skipped("PoiseViewTests.BrowserTests/pageLoads()/BrowserTests.swift:20:6",
                                  "chromium is not installed (scripts/setup-test-browser installs it)")]
    static let silent = skipped("PoiseCLITests/safe()/SafeCommandTests.swift:22:2", nil)

    /// Runs the checker on `records` (and kernel-test `notes`); its exit status and output.
    static func check(_ records: [String], notes: String = "", ci: Bool) throws -> (status: Int32, output: String) {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let events = directory.appending(path: "events.jsonl"), notesFile = directory.appending(path: "notes")
        try (records.joined(separator: "\n") + "\n").write(to: events, atomically: true, encoding: .utf8)
        try notes.write(to: notesFile, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repositoryRoot.appending(path: "scripts/check-skips").path,
                             "--events", events.path, "--notes", notesFile.path]
        var environment = ProcessInfo.processInfo.environment
        environment["CI"] = ci ? "true" : nil
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test func allowedSkipsPassInCI() throws {
        let run = try Self.check([Self.allowed], ci: true)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("allowed       1  ../shared/traces is absent"), "\(run.output)")
    }

    @Test func aSkipNotAllowedFailsOnlyInCI() throws {
        let ci = try Self.check([Self.allowed] + Self.browser, ci: true)
        #expect(ci.status == 1)
        // The suite and its one test are one skipped test, shown once as the whole suite.
        #expect(ci.output.contains("NOT ALLOWED   1  chromium is not installed"), "\(ci.output)")
        #expect(ci.output.contains("BrowserTests (whole suite)"), "\(ci.output)")
        let local = try Self.check([Self.allowed] + Self.browser, ci: false)
        #expect(local.status == 0)
        #expect(local.output.contains("would fail a CI run"), "\(local.output)")
    }

    @Test func aSkipWithoutAReasonIsNeverAllowed() throws {
        let run = try Self.check([Self.silent], ci: true)
        #expect(run.status == 1)
        #expect(run.output.contains("NOT ALLOWED   1  (no reason given)"), "\(run.output)")
    }

    @Test func kernelTestNotesAreCheckedToo() throws {
        let allowed = try Self.check([], notes: "kernel tests\tno kernel image or qemu-system-x86_64\n", ci: true)
        #expect(allowed.status == 0, "\(allowed.output)")
        let refused = try Self.check([], notes: "kernel tests\t/usr/lib/modules/6.1.0 missing\n", ci: true)
        #expect(refused.status == 1, "\(refused.output)")
    }

    @Test func aRunWithNoSkipsSaysSo() throws {
        let run = try Self.check([], ci: true)
        #expect(run.status == 0)
        #expect(run.output.contains("Skipped: nothing."))
    }
}
