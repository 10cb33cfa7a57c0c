import Foundation
import Testing

/// The repository root, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The `poise` binary `swift build` puts next to the sources.
let poisePath = repositoryRoot.appending(path: ".build/debug/poise").path
let poiseIsBuilt = FileManager.default.isExecutableFile(atPath: poisePath)

/// The BROAD recordings: `$POISE_TRACES`, else `../shared/traces` beside the repository, else
/// one level further up (a git worktree under `wt/`). Users' clones have none.
let sharedTraces: URL = {
    if let path = ProcessInfo.processInfo.environment["POISE_TRACES"] { return URL(fileURLWithPath: path) }
    let beside = repositoryRoot.deletingLastPathComponent().appending(path: "shared/traces")
    let above = repositoryRoot.deletingLastPathComponent().deletingLastPathComponent().appending(path: "shared/traces")
    return FileManager.default.fileExists(atPath: beside.path) || !FileManager.default.fileExists(atPath: above.path) ? beside : above
}()
let sharedTraceFiles: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: sharedTraces.path)) ?? []
    return names.filter { $0.hasSuffix(".csv") }.sorted().map { sharedTraces.appending(path: $0).path }
}()
/// The skip reasons, word for word as scripts/allowed-skips.txt lists the allowed ones.
let sharedTracesNote: Comment = "../shared/traces is absent (the BROAD recordings are not in users' clones)"
let poiseBuiltNote: Comment = "needs the built .build/debug/poise: run `swift build` first"

struct PoiseRun {
    var status: Int32
    var output: Data
    var error: String
    var text: String { String(decoding: output, as: UTF8.self) }
}

/// Runs the built `poise` with `arguments`.
func poise(_ arguments: [String]) throws -> PoiseRun {
    try runBuilt(poisePath, arguments)
}

/// Another program `swift build` puts next to `poise` (`poise-view`, the examples).
func builtProgram(_ name: String) -> String {
    repositoryRoot.appending(path: ".build/debug/\(name)").path
}

/// Runs the built program at `path` with `arguments` (and `environment`, when given, instead of
/// the test's own).
func runBuilt(_ path: String, _ arguments: [String], environment: [String: String]? = nil) throws -> PoiseRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    if let environment { process.environment = environment }
    // Standard error goes to a file so neither stream can fill a pipe and block the child.
    let errorURL = FileManager.default.temporaryDirectory.appending(path: "poise-stderr-\(UUID().uuidString)")
    FileManager.default.createFile(atPath: errorURL.path, contents: nil)
    let errorHandle = try FileHandle(forWritingTo: errorURL)
    defer { try? FileManager.default.removeItem(at: errorURL) }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = errorHandle
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try errorHandle.close()
    let errorData = (try? Data(contentsOf: errorURL)) ?? Data()
    return PoiseRun(status: process.terminationStatus, output: outputData,
                    error: String(decoding: errorData, as: UTF8.self))
}

/// A fresh temporary directory for one test.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appending(path: "poise-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// FNV-1a 64-bit hash, for golden digests of large outputs.
func fnv1a(_ data: Data) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in data { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return String(hash, radix: 16)
}

extension Process {
    /// Starts the process with standard output discarded and standard error going to
    /// `DIR/stderr` (a file, so a chatty child can never block on a full pipe); what it has
    /// written so far.
    func runWritingStandardError(into directory: URL) throws -> () -> String {
        let errorURL = directory.appending(path: "stderr")
        FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        standardError = try FileHandle(forWritingTo: errorURL)
        standardOutput = FileHandle.nullDevice
        try run()
        return { (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "" }
    }
}

/// Runs `poise ARGUMENTS` with `signal` already sent: the child starts with it blocked (a
/// mask is inherited through exec) and pending, so the command takes it whenever it starts
/// listening, however fast or slow the machine. Returns the exit status, or 128 + the signal
/// that killed it. Standard output and error go to /dev/null.
func poiseInterruptedAtStart(_ arguments: [String], by signal: Int32 = SIGINT) throws -> Int32 {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var mask = sigset_t()
    sigemptyset(&mask)
    sigaddset(&mask, signal)
    posix_spawnattr_setsigmask(&attributes, &mask)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([poisePath] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, poisePath, &actions, &attributes, argv, environ)
    guard spawned == 0 else { throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "posix_spawn: \(spawned)"]) }
    kill(pid, signal)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let killedBy = status & 0x7f
    return killedBy == 0 ? (status >> 8) & 0xff : 128 + killedBy
}

/// A NOTIFY_SOCKET for a child `poise run`: what it tells systemd (READY=1, WATCHDOG=1…),
/// read by the test — the deterministic sign that the loop runs, whatever the machine's speed.
final class NotifySocket {
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
    /// The next message, or nil after 0.1 s without one.
    func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 512)
        let n = recv(fd, &buffer, buffer.count, 0)
        return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : nil
    }
    /// Waits (up to `tries` × 0.1 s) for a message containing `text`.
    func waitFor(_ text: String, tries: Int = 300) -> Bool {
        for _ in 0..<tries { if receive()?.contains(text) == true { return true } }
        return false
    }
}

/// Runs a project script with `tools` first on PATH (stand-ins that record their calls), as a
/// user's shell would; standard error goes to a file, so neither stream can fill a pipe and
/// block the script while the other is read.
func runScript(_ executable: URL, _ arguments: [String], toolsFirst tools: URL) throws -> (status: Int32, text: String, error: String) {
    var environment = ProcessInfo.processInfo.environment
    environment["PATH"] = tools.path + ":/usr/bin:/bin"
    let run = try runBuilt(executable.path, arguments, environment: environment)
    return (run.status, run.text, run.error)
}
