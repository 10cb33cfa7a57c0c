import Foundation
import Testing

/// Runs `poise` with standard output sent to `path` (for example /dev/full).
func poise(_ arguments: [String], standardOutputTo path: String) throws -> PoiseRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: poisePath)
    process.arguments = arguments
    let output = try #require(FileHandle(forWritingAtPath: path))
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try output.close()
    return PoiseRun(status: process.terminationStatus, output: Data(), error: String(decoding: errorData, as: UTF8.self))
}

/// Runs `poise` as the unprivileged user `nobody` (root ignores file permissions), or
/// returns nil when that is impossible here.
func poiseAsNobody(_ arguments: [String]) throws -> PoiseRun? {
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
        return getuid() == 0 ? nil : try poise(arguments)
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "--", poisePath] + arguments
    let output = Pipe(), error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return PoiseRun(status: process.terminationStatus, output: outputData, error: String(decoding: errorData, as: UTF8.self))
}

/// A `poise` process fed through a pipe, to be interrupted at a known point.
struct FedPoise {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    let errorURL: URL

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: poisePath)
        process.arguments = arguments
        errorURL = FileManager.default.temporaryDirectory.appending(path: "poise-stderr-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        process.standardInput = input
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
    }

    func feed(_ text: String) { input.fileHandleForWriting.write(Data(text.utf8)) }

    /// Waits until the process catches SIGINT (its handler is installed), read from
    /// /proc/PID/status, so the signal cannot arrive before the command is ready for it.
    func waitForSignalHandler() throws {
        for _ in 0..<2000 {
            let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
            if let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
               let mask = UInt64(line.split(separator: "\t").last ?? "", radix: 16), mask & (1 << (SIGINT - 1)) != 0 {
                return
            }
            usleep(5000)
        }
        Issue.record("poise never installed its SIGINT handler")
    }

    /// Closes the input, waits, and returns what came out.
    func finish() throws -> PoiseRun {
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let error = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: errorURL)
        return PoiseRun(status: process.terminationStatus, output: data, error: error)
    }
}

/// Whether `path` is a character device (what /dev/null must stay).
func isCharacterDevice(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR
}

/// Names in `directory` that look like a poise temporary file.
func temporaryFiles(in directory: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".tmp") }
}

/// A small synthetic trace (200 Hz demo motion) written by `poise synth`.
func synthTrace(in directory: URL, name: String = "run.csv", arguments: [String] = []) throws -> String {
    let path = directory.appending(path: name).path
    let run = try poise(["synth", "--motion", "demo", "--rate", "50", "-o", path] + arguments)
    #expect(run.status == 0, "\(run.error)")
    return path
}

/// Rows of sensor data for a trace fed through a pipe: `count` rows from time `start`.
func sensorRows(from start: Int, count: Int) -> String {
    (start..<(start + count)).map { "\(Double($0) / 100),0,0,9.81,0.01,0,0\n" }.joined()
}
