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
        let ready = try ReadySocket(path: dir.appending(path: "notify").path)
        let first = Process()
        first.executableURL = URL(fileURLWithPath: poisePath)
        first.arguments = ["run", "--record", recording, "--quiet"]
        first.environment = ProcessInfo.processInfo.environment.merging(["NOTIFY_SOCKET": ready.path]) { $1 }
        let firstErrors = try first.runWritingStandardError(into: dir)
        defer {
            if first.isRunning { kill(first.processIdentifier, SIGKILL); first.waitUntilExit() }
        }
        // READY comes with the first record, after the recording was opened (and locked).
        #expect(ready.waitFor("READY=1"), "\(firstErrors())")
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

/// A NOTIFY_SOCKET for a child `poise run`: what it tells systemd, read by the test.
final class ReadySocket {
    let fd: Int32
    let path: String

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Waits (up to a minute) for a message containing `text`.
    func waitFor(_ text: String) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 512)
        for _ in 0..<600 {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n > 0, String(decoding: buffer[0..<n], as: UTF8.self).contains(text) { return true }
        }
        return false
    }
}
