import Foundation
import Testing
@testable import PoiseView

let nodePath = ["/usr/bin/node", "/usr/local/bin/node"].first { FileManager.default.isExecutableFile(atPath: $0) }

@Suite struct PageAssetsTests {
    @Test func pageLoadsOnlyItsOwnScript() {
        // Offline on the board's network: nothing from a CDN or any other host.
        #expect(PageAssets.html.contains("<script src=\"app.js\"></script>"))
        #expect(!PageAssets.html.contains("http://") && !PageAssets.html.contains("https://"))
        #expect(!PageAssets.script.contains("https://") && !PageAssets.script.contains("import "))
        #expect(PageAssets.script.contains("window.poiseDebug"))
    }

    @Test(.enabled(if: nodePath != nil, "needs node for the JavaScript syntax check (the browser tests run the script in Chromium)"))
    func scriptIsValidJavaScript() throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "poise-view-\(getpid()).js")
        try PageAssets.script.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(runProcess(nodePath!, ["--check", file.path], timeout: 60).status == 0)
    }

    /// Runs `test` (JavaScript that prints JSON) after the page's pure functions in node.
    func evaluate(_ test: String) throws -> Any? {
        let file = FileManager.default.temporaryDirectory.appending(path: "poise-view-logic-\(UUID().uuidString).js")
        try (PageAssets.scriptMath + "\n" + test).write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = runProcess(nodePath!, [file.path], timeout: 60)
        #expect(run.status == 0)
        return try JSONSerialization.jsonObject(with: Data(run.output.utf8), options: [.fragmentsAllowed])
    }

    @Test(.enabled(if: nodePath != nil, "node is not installed: skipped"))
    func plotTicksAreRoundNumbersWithoutRepeats() throws {
        // The ranges that gave "1,1,1,0" (outputs 0…1) and "91/46/−45" (angles just past ±90).
        let cases = [[0, 1], [-91, 91], [-45, 91], [1000, 2000], [0, 0], [1499.5, 1500.5], [-0.3, 0.2]]
        let labels = try evaluate("console.log(JSON.stringify(\(cases).map(([lo, hi]) => niceTicks(lo, hi, 4).ticks.map((t) => t.label))))")
            as? [[String]] ?? []
        #expect(labels.count == cases.count)
        for (range, ticks) in zip(cases, labels) {
            #expect(Set(ticks).count == ticks.count, "repeated labels for \(range): \(ticks)")
            #expect(ticks.count >= 2 && ticks.count <= 6, "\(range): \(ticks)")
            let values = ticks.compactMap(Double.init)
            #expect(values.count == ticks.count)
            #expect(values.first! <= range[0] && values.last! >= range[1], "\(range) not covered by \(ticks)")
            let step = values[1] - values[0]
            let mantissa = step / pow(10, floor(log10(step)))
            #expect([1, 2, 5].contains { abs(mantissa - $0) < 1e-6 }, "step \(step) for \(range)")
        }
        #expect(labels[0] == ["0.0", "0.5", "1.0"])
        #expect(labels[1] == ["-100", "-50", "0", "50", "100"])
    }

    @Test(.enabled(if: nodePath != nil, "node is not installed: skipped"))
    func outputChannelsKeepTheirLineAtZeroAndTheirNames() throws {
        let result = try evaluate("""
            console.log(JSON.stringify([
              channelCount([], [1500, 1500, 0], 0), channelCount([], [0, 0, 0], 2), channelCount([], [], 0),
              channelCount(["left", "right"], [0, 0], 0), channelLabels(["left", "right"], 2), channelLabels([], 2)]))
            """) as? [Any] ?? []
        #expect(result.count == 6)
        #expect(result.prefix(4).compactMap { $0 as? Int } == [2, 2, 0, 2])
        #expect(result[4] as? [String] == ["left", "right"])
        #expect(result[5] as? [String] == ["ch 1", "ch 2"])
    }

    @Test(.enabled(if: nodePath != nil, "node is not installed: skipped"))
    func staleSnapshotsAgeByTheServersClock() throws {
        // Received 60 s ago by the server, whose clock is 5 s behind the browser's: 60 s old,
        // though the page has only just been handed it.
        let ages = try evaluate("console.log(JSON.stringify([snapshotAgeMs(1000000, 1065000, 5000), snapshotAgeMs(0, 5, 0) === Infinity]))")
            as? [Any] ?? []
        #expect(ages.first as? Int == 60000)
        #expect(ages.last as? Bool == true)
    }
}
