import Foundation

/// `poise run` talking to a test peer on loopback, started beside it. Its standard error goes
/// to `stderr.txt` in `directory` (its output to nowhere), since the peer's output is read as
/// it comes: a full pipe would stop the peer (it prints every message) and with it the run.
struct PoiseRunBesidePeer {
    let process = Process()
    let errorFile: URL

    init(config: URL, peer: MAVLinkPeer, duration: Double, arguments: [String] = [], environment: [String: String] = [:],
         in directory: URL) throws {
        process.executableURL = URL(fileURLWithPath: poisePath)
        process.arguments = ["run", "--config", config.path, "--duration", String(duration),
                             "--telemetry", "127.0.0.1:\(peer.port)", "--quiet"] + arguments
        errorFile = directory.appending(path: "stderr.txt")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        process.standardOutput = FileHandle.nullDevice
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        try process.run()
    }

    /// What the run wrote to its standard error.
    var error: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }
}
