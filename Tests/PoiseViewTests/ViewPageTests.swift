import Foundation
import PoiseDeviceSettings
import PoiseFlightCore
import PoiseMath
import PoiseTelemetry
import Testing

/// The page as a user finds it, in headless Chromium: angle plots that break at the ±180°
/// wrap, "Clear reference" usable with ?reference=, outputs with their units, a page opened
/// late that shows the last seconds, the link's signing state.
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote), .enabled(if: chromiumPath != nil, chromiumNote), .serialized)
struct ViewPageTests {
    static let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appending(path: "poise-view-page-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    @Test func angleLinesBreakAtTheWrapInsteadOfCrossingThePlot() throws {
        // Yaw turns at 90°/s: it wraps from +180° to −180° every 4 s.
        let script = Self.directory.appending(path: "spin.txt")
        try "rest 3 s\nspin z 90 deg/s for 14 s\nrest 1 s\n".write(to: script, atomically: true, encoding: .utf8)
        let trace = Self.directory.appending(path: "spin.csv").path
        #expect(runProcess(poisePath, ["synth", "--script", script.path, "--errors", "ideal", "--output", trace], timeout: 120).status == 0)
        let view = try ViewProcess([trace, "--port", "0"])
        let page = try pageDebug(view.url + "?t=14")
        let breaks = page["angleBreaks"] as? Int ?? 0
        let widest = page["angleWidestStep"] as? Double ?? 999
        #expect(breaks >= 2, "the 10 s shown hold two wraps: \(breaks) breaks")
        #expect(widest < 30, "a line across the plot: a step of \(widest)° drawn")
    }

    @Test func clearReferenceIsEnabledWhenTheAddressSetsOne() throws {
        let trace = Self.directory.appending(path: "demo.csv").path
        runProcess(poisePath, ["synth", "--motion", "demo", "--output", trace], timeout: 120)
        let view = try ViewProcess([trace, "--port", "0"])
        let relative = try pageDebug(view.url + "?t=8&reference=2")
        #expect(relative["referenceShown"] as? Bool == true)
        #expect(relative["clearReferenceEnabled"] as? Bool == true)
        let absolute = try pageDebug(view.url + "?t=8")
        #expect(absolute["clearReferenceEnabled"] as? Bool == false)
    }

    @Test func outputsCarryTheirUnits() throws {
        let recording = Self.directory.appending(path: "quad.csv").path
        let config = repositoryRoot.appending(path: "configs/sim-quad-x.yaml").path
        runProcess(poisePath, ["run", "--config", config, "--duration", "6", "--record", recording, "--quiet"], timeout: 120)
        let view = try ViewProcess([recording, "--config", config, "--port", "0"])
        let page = try pageDebug(view.url + "?t=5.2")
        let labels = page["channelLabels"] as? [String] ?? []
        #expect(labels.first == "esc1 (µs)", "\(labels)")
        #expect(page["channels"] as? [String] == ["esc1", "esc2", "esc3", "esc4"])
    }

    @Test func aPageOpenedLateShowsTheLastSecondsAndTheSigningState() throws {
        let view = try ViewProcess(["--udp-port", "0", "--udp-host", "127.0.0.1", "--port", "0"])
        let port = try #require(view.udpPort)
        // Three seconds of a stream that then stops, before any page is open.
        let sender = try TelemetrySender(address: TelemetryAddress(host: "127.0.0.1", port: port), settings: TelemetrySettings())
        sender.start()
        for tick in 0 ..< 300 {
            var record = TickRecord()
            record.tick = UInt64(tick)
            record.time = Double(tick) / 100
            record.sampleValid = true
            record.attitude = Quaternion(EulerAngles(pitch: 0.3 * Float(tick) / 300, roll: 0, yaw: 0))
            sender.offer(record)
            usleep(10_000)
        }
        sender.stop()
        let debug = "window.poiseDebug"
        let page = try pageViaDevTools(view.url, waitFor: "\(debug) && \(debug).historyReceived > 0", settle: 0.5,
                                       evaluate: debug) as? [String: Any] ?? [:]
        // Up to 10 s at one snapshot per 20 ms: the 3 s sent are there to draw.
        #expect((page["historyReceived"] as? Int ?? 0) >= 50, "\(page["historyReceived"] ?? "none")")
        #expect((page["historyLength"] as? Int ?? 0) >= 50, "\(page["historyLength"] ?? "none")")
        #expect(page["signing"] as? String == "unsigned")
        #expect((page["link"] as? String ?? "").contains("unsigned") || (page["link"] as? String ?? "").contains("no data"), "\(page["link"] ?? "")")
    }
}
