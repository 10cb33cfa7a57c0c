import Foundation
import Testing

// Running `poise view`, `poise synth` and headless Chromium for the browser tests.

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let poisePath = repositoryRoot.appending(path: ".build/debug/poise").path
/// Screenshots the tests take, for people to look at (git-ignored).
let artifactsDirectory = repositoryRoot.appending(path: ".build/test-artifacts")

/// Debian's Chromium, installed by scripts/setup-test-browser on first use (unless
/// `POISE_TEST_INSTALL=0`, as `scripts/test --quick` sets); nil when it cannot be installed.
let chromiumPath: String? = {
    func find() -> String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }
    if find() == nil, ProcessInfo.processInfo.environment["POISE_TEST_INSTALL"] != "0" {
        _ = runProcess(repositoryRoot.appending(path: "scripts/setup-test-browser").path, [], timeout: 600)
    }
    return find()
}()
let poiseIsBuilt = FileManager.default.isExecutableFile(atPath: poisePath)
/// The skip reasons, word for word as scripts/allowed-skips.txt lists the allowed ones.
let poiseBuiltNote: Comment = "needs the built .build/debug/poise: run `swift build` first"
let chromiumNote: Comment = "chromium is not installed (scripts/setup-test-browser installs it)"

/// Runs a program to completion (killed after `timeout` s); its standard output, or its
/// standard error when `standardError` (the other stream is discarded).
@discardableResult
func runProcess(_ path: String, _ arguments: [String], timeout: Double,
                standardError: Bool = false) -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = standardError ? FileHandle.nullDevice : pipe
    process.standardError = standardError ? pipe : FileHandle.nullDevice
    do { try process.run() } catch { return (-1, "") }
    let killer = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    killer.cancel()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// A `poise view` process, stopped when this goes away.
final class ViewProcess {
    let process = Process()
    /// The first line it prints: "poise view: http://127.0.0.1:PORT/ (MAVLink on UDP …:PORT)".
    let banner: String

    /// `descriptorLimit`: run it under `ulimit -n` of that.
    init(_ arguments: [String], descriptorLimit: Int? = nil) throws {
        if let descriptorLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(descriptorLimit) && exec \"$0\" view \"$@\"", poisePath] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: poisePath)
            process.arguments = ["view"] + arguments
        }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while true {
            let byte = pipe.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line += byte
        }
        banner = String(decoding: line, as: UTF8.self)
    }

    deinit {
        // SIGKILL: a child of the test runner may have inherited an ignored SIGTERM.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    var url: String { banner.split(separator: " ").first { $0.hasPrefix("http://") }.map(String.init) ?? "" }
    var udpPort: UInt16? { banner.split(separator: ":").last.flatMap { UInt16($0.trimmingCharacters(in: CharacterSet(charactersIn: ")"))) } }
}

let chromiumFlags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--mute-audio",
                     "--no-first-run", "--window-size=1280,1150"]

/// The page after `budget` ms of (virtual) time: the debug record it keeps in #poise-debug.
func pageDebug(_ url: String, budget: Int = 3000) throws -> [String: Any] {
    let dom = runProcess(chromiumPath!, chromiumFlags + ["--virtual-time-budget=\(budget)", "--dump-dom", url], timeout: 90).output
    guard let start = dom.range(of: "<pre id=\"poise-debug\">"), let end = dom.range(of: "</pre>", range: start.upperBound ..< dom.endIndex) else {
        Issue.record("no #poise-debug in the page's DOM")
        return [:]
    }
    let text = String(dom[start.upperBound ..< end.lowerBound])
        .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
        .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    return try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
}

/// Saves a screenshot of the page to .build/test-artifacts/NAME.png and returns its path.
@discardableResult
func screenshot(_ url: String, name: String, budget: Int = 3000) -> String {
    try? FileManager.default.createDirectory(at: artifactsDirectory, withIntermediateDirectories: true)
    let path = artifactsDirectory.appending(path: name + ".png").path
    runProcess(chromiumPath!, chromiumFlags + ["--virtual-time-budget=\(budget)", "--screenshot=\(path)", url], timeout: 90)
    return path
}

func floats(_ value: Any?) -> [Float] { (value as? [Double] ?? []).map(Float.init) }

/// The page driven in real time through the DevTools protocol (Tests/peer/cdp.py): waits for
/// `waitFor` to be true, then `settle` s, and returns the JSON value of `evaluate`.
func pageViaDevTools(_ url: String, waitFor: String, settle: Double = 0, evaluate: String,
                     screenshotName: String? = nil, timeout: Double = 30) throws -> Any? {
    var arguments = ["python3", repositoryRoot.appending(path: "Tests/peer/cdp.py").path, "--chromium", chromiumPath!,
                     "--url", url, "--wait-for", waitFor, "--settle", String(settle), "--eval", evaluate,
                     "--timeout", String(timeout)]
    if let screenshotName {
        try FileManager.default.createDirectory(at: artifactsDirectory, withIntermediateDirectories: true)
        arguments += ["--screenshot", artifactsDirectory.appending(path: screenshotName + ".png").path]
    }
    let run = runProcess("/usr/bin/env", arguments, timeout: timeout + 30)
    guard run.status == 0 else {
        Issue.record("the page never satisfied `\(waitFor)` (cdp.py exit \(run.status)): \(run.output)")
        return nil
    }
    return try JSONSerialization.jsonObject(with: Data(run.output.utf8), options: [.fragmentsAllowed])
}
