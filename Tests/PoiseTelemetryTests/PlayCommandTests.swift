import Foundation
import Testing

let poisePath = repositoryRoot.appending(path: ".build/debug/poise").path

/// Runs the built `poise`; exit status and standard error.
func poise(_ arguments: [String]) throws -> (status: Int32, error: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: poisePath)
    process.arguments = arguments
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let data = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: poisePath), poiseBuiltNote),
       .enabled(if: peerPython != nil, pymavlinkNote))
struct PlayCommandTests {
    @Test func playSendsTheTraceAsMAVLinkAtItsRates() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "poise-play-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appending(path: "demo.csv").path
        #expect(try poise(["synth", "--motion", "demo", "--output", trace]).status == 0)
        let peer = try MAVLinkPeer(python: peerPython!)
        // 38 s of trace at 20× speed: about two seconds.
        let run = try poise(["play", trace, "--telemetry", "127.0.0.1:\(peer.port)", "--speed", "20"])
        #expect(run.status == 0, "\(run.error)")
        let messages = try peer.messages()
        var counts: [String: Int] = [:]
        for m in messages { counts[m["type"] as? String ?? "?", default: 0] += 1 }
        // Default rates over 38 s of sensor time: attitude 50 Hz, IMU and outputs 10 Hz, heartbeat 1 Hz.
        #expect((1895 ... 1905).contains(counts["ATTITUDE"] ?? 0), "\(counts)")
        #expect(counts["ATTITUDE"] == counts["ATTITUDE_QUATERNION"])
        #expect((37 ... 39).contains(counts["HEARTBEAT"] ?? 0) && (379 ... 381).contains(counts["SCALED_IMU"] ?? 0))
        #expect(counts["BAD_DATA"] == nil)
        #expect(run.error.contains("played 7601 samples"))
    }

    @Test func playWithoutAnAddressSaysWhatIsMissing() throws {
        let run = try poise(["play", "/nonexistent.csv"])
        #expect(run.status != 0)
        #expect(run.error.contains("no telemetry address"))
        let bad = try poise(["play", "/nonexistent.csv", "--telemetry", "localhost"])
        #expect(bad.error.contains("expected HOST:PORT"))
    }
}
