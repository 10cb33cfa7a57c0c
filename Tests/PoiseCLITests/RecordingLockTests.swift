import Foundation
import Testing

/// One recording, one writer: while `poise run --record FILE` records, a second recorder of
/// FILE is refused, `--overwrite` or not, with an error naming the file and the process
/// holding it, and the first recording stays whole (it replays).
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote))
struct RecordingLockTests {
    @Test(arguments: ["same.ptrace", "same.csv"])
    func aSecondRecorderOfOneFileIsRefused(name: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let recording = dir.appending(path: name).path
        let ready = try NotifySocket(path: dir.appending(path: "notify").path)
        let first = Process()
        first.executableURL = URL(fileURLWithPath: poisePath)
        first.arguments = ["run", "--record", recording, "--quiet"]
        first.environment = ProcessInfo.processInfo.environment.merging(["NOTIFY_SOCKET": ready.path]) { $1 }
        let firstErrors = try first.runWritingStandardError(into: dir)
        defer {
            if first.isRunning { kill(first.processIdentifier, SIGKILL); first.waitUntilExit() }
        }
        // READY comes with the first record, after the recording was opened (and locked).
        #expect(ready.waitFor("READY=1", tries: 600), "\(firstErrors())")
        #expect(FileManager.default.fileExists(atPath: recording))

        for extra in [[], ["--overwrite"]] {
            let second = try poise(["run", "--record", recording, "--duration", "30", "--quiet"] + extra)
            #expect(second.status == 1, "\(extra): \(second.error)")
            #expect(second.error.contains("\(recording): is being recorded by another process (pid \(first.processIdentifier))"),
                    "\(extra): \(second.error)")
        }
        // `poise record` writes recordings the same way.
        let record = try poise(["record", recording, "--duration", "30", "--overwrite", "--quiet"])
        #expect(record.status == 1 && record.error.contains("is being recorded by another process"), "\(record.error)")

        // The first run stops cleanly, and what it recorded replays: nothing interleaved.
        kill(first.processIdentifier, SIGTERM)
        first.waitUntilExit()
        #expect(first.terminationStatus == 0, "\(firstErrors())")
        let replay = try poise(["replay", recording, "-o", dir.appending(path: "replayed.csv").path, "--quiet"])
        #expect(replay.status == 0, "\(replay.error)")

        // Once it has finished, the file is free: --overwrite replaces it, without it is refused as before.
        let again = try poise(["run", "--record", recording, "--duration", "0.2", "--quiet"])
        #expect(again.status == 1 && again.error.contains("exists; a recording never replaces a file unless asked"), "\(again.error)")
        let overwrite = try poise(["run", "--record", recording, "--duration", "0.2", "--overwrite", "--quiet"])
        #expect(overwrite.status == 0, "\(overwrite.error)")
    }
}
