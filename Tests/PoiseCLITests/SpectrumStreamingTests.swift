import Foundation
import Testing

/// `poise spectrum` streams: the same bytes as when it read the whole recording into memory,
/// peak memory that does not grow with the recording, and a progress line on a terminal.
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote))
struct SpectrumStreamingTests {
    /// SpectrumCommandTests' recording, `rows` long: tones at 37 and 210.5 Hz, a motor line
    /// following the command as it steps 0.3 → 0.5 → 0.7.
    static func writeTrace(rows: Int, to url: URL) throws {
        var text = "# rate_hz=1000\nt,ax,ay,az,gx,gy,gz,out_esc1,out_esc2\n"
        var phase = 0.0
        for i in 0..<rows {
            let t = Double(i) / 1000
            let command = i < rows * 7 / 20 ? 0.3 : i < rows * 14 / 20 ? 0.5 : 0.7
            phase += 2 * .pi * 100 * (command / 0.4).squareRoot() / 1000
            let noise = 0.01 * sin(Double(i) * 12.9898).truncatingRemainder(dividingBy: 1)
            let gx = 0.2 * sin(2 * .pi * 37 * t) + 0.1 * sin(phase) + noise
            let gy = 0.2 * sin(2 * .pi * 210.5 * t) + 0.1 * sin(phase) - noise
            let pulse = 1000 + 1000 * command
            text += "\(t),0,0,9.81,\(gx),\(gy),\(noise),\(pulse),\(pulse)\n"
        }
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// The JSON without the `rotor` key the notch proposal added (everything else as before).
    static func withoutRotor(_ json: String) -> String {
        guard let start = json.range(of: "\"rotor\":{") else { return json }
        var depth = 0
        var index = json.index(before: start.upperBound)
        while index < json.endIndex {
            if json[index] == "{" { depth += 1 }
            if json[index] == "}" { depth -= 1; if depth == 0 { break } }
            index = json.index(after: index)
        }
        var end = json.index(after: index)
        if end < json.endIndex, json[end] == "," { end = json.index(after: end) }
        return String(json[..<start.lowerBound]) + String(json[end...])
    }

    /// Digests of what the in-memory `poise spectrum` (before it streamed) wrote for the
    /// 20 000-row recording: the SVG, the JSON and the summary with --config; the SVG and the
    /// summary without.
    static let golden = (svg: "31de155e5970a1b7", json: "2faf2e760dab3ee7", summary: "3ad1f08fd4f04e84",
                         plainSVG: "6854d259722df86", plainSummary: "bcc0413f40f68d76",
                         binarySVG: "370ad0a7f4b449b9", standardInputSVG: "a62c803d972d1c6c")

    @Test func theOutputIsByteIdenticalToTheInMemorySpectrum() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appending(path: "tones.csv"), config = dir.appending(path: "quad.yaml")
        try Self.writeTrace(rows: 20_000, to: trace)
        try SpectrumCommandTests.config.write(to: config, atomically: true, encoding: .utf8)
        let svg = dir.appending(path: "psd.svg")
        let json = try poise(["spectrum", trace.path, "--config", config.path, "--json", "-o", svg.path, "--resolution", "1"])
        #expect(json.status == 0, "\(json.error)")
        #expect(fnv1a(try Data(contentsOf: svg)) == Self.golden.svg)
        #expect(fnv1a(Data(Self.withoutRotor(json.text).utf8)) == Self.golden.json)
        let text = try poise(["spectrum", trace.path, "--config", config.path, "-o", svg.path, "--resolution", "1"])
        #expect(text.status == 0, "\(text.error)")
        // The golden summaries were made with the recording named `tones.csv`.
        let before = text.text.replacingOccurrences(of: trace.path, with: "tones.csv").components(separatedBy: "\nrotor lines")[0] + "\n"
        #expect(fnv1a(Data(before.utf8)) == Self.golden.summary, "\(text.text)")
        let plain = try poise(["spectrum", trace.path, "-o", svg.path])
        #expect(fnv1a(try Data(contentsOf: svg)) == Self.golden.plainSVG)
        let plainBefore = plain.text.replacingOccurrences(of: trace.path, with: "tones.csv").components(separatedBy: "\nrotor lines")[0] + "\n"
        #expect(fnv1a(Data(plainBefore.utf8)) == Self.golden.plainSummary)
        // A binary copy (its sensor columns in single precision) and standard input (read once,
        // its rows kept; titled "-") give what they gave before too.
        let binary = dir.appending(path: "tones.ptrace")
        #expect(try poise(["convert", trace.path, binary.path]).status == 0)
        #expect(try poise(["spectrum", binary.path, "-o", svg.path]).status == 0)
        #expect(fnv1a(try Data(contentsOf: svg)) == Self.golden.binarySVG)
        let piped = try runShell("\(poisePath) spectrum - -o \(svg.path) < \(trace.path)")
        #expect(piped.status == 0)
        #expect(fnv1a(try Data(contentsOf: svg)) == Self.golden.standardInputSVG)
    }

    @Test func peakMemoryDoesNotGrowWithTheRecording() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let short = dir.appending(path: "short.csv"), long = dir.appending(path: "long.csv")
        try Self.writeTrace(rows: 40_000, to: short)
        try Self.writeTrace(rows: 400_000, to: long)
        let small = try peakResidentKilobytes(poisePath, ["spectrum", short.path, "--quiet", "-o", dir.appending(path: "a.svg").path])
        let large = try peakResidentKilobytes(poisePath, ["spectrum", long.path, "--quiet", "-o", dir.appending(path: "b.svg").path])
        // Holding the rows took 7 doubles a row and their copies (≈ 25 MB more for the long
        // one, a ratio near 2 over the program's own size); streaming holds one segment.
        let ratio = Double(large) / Double(small)
        #expect(ratio < 1.2, "peak RSS \(small) kB for 40 000 rows, \(large) kB for 400 000: ×\(ratio)")
    }

    @Test func aTerminalSeesProgressAndQuietSilencesIt() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appending(path: "long.csv")
        try Self.writeTrace(rows: 200_000, to: trace)
        // script(1) gives the command a terminal, as a user's shell does.
        let shown = try runShell("script -qec '\(poisePath) spectrum \(trace.path) -o \(dir.path)/p.svg' /dev/null")
        #expect(shown.status == 0)
        #expect(shown.output.contains("131072 samples") && shown.output.contains("/200000"), "\(shown.output.suffix(400))")
        let quiet = try runShell("script -qec '\(poisePath) spectrum \(trace.path) --quiet -o \(dir.path)/p.svg' /dev/null")
        #expect(!quiet.output.contains("131072"), "\(quiet.output.suffix(400))")
    }
}

/// Runs `command` with /bin/sh; its exit status and standard output (and error, merged).
func runShell(_ command: String) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command + " 2>&1"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// Runs a program to its end and returns its own peak resident set size, kB (wait4's rusage
/// of that one child, whatever else the test process runs meanwhile).
func peakResidentKilobytes(_ path: String, _ arguments: [String]) throws -> Int {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
    guard spawned == 0 else { throw CocoaError(.executableLoad) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    #expect(status == 0, "\(arguments) exited with \(status)")
    return usage.ru_maxrss
}
