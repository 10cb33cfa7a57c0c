import Foundation
import PoiseConfig
import PoiseDeviceSettings
import PoiseFlightCore
import PoiseFlightSettings
import PoiseMath
import PoiseSettings
import PoiseTelemetry
@testable import PoiseView
import Testing

/// The page in a real browser (headless Chromium): data arrives, and the model-view matrix
/// it draws the die with is the one the attitude gives (Eq. VII), computed here in Swift.
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote), .enabled(if: chromiumPath != nil, chromiumNote), .serialized)
struct BrowserTests {
    static let trace: String = {
        let directory = FileManager.default.temporaryDirectory.appending(path: "poise-view-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appending(path: "demo.csv").path
        runProcess(poisePath, ["synth", "--motion", "demo", "--output", path], timeout: 120)
        return path
    }()

    /// What the page is given for the trace, computed the same way in-process.
    func snapshot(at time: Double, in snapshots: [ViewSnapshot]) -> ViewSnapshot {
        snapshots.last { $0.time <= time } ?? snapshots[0]
    }

    @Test func tracePageUsesTheModelViewOfTheAttitude() throws {
        let view = try ViewProcess([Self.trace, "--port", "0"])
        #expect(view.url.hasPrefix("http://127.0.0.1:"))
        let snapshots = try TraceSnapshots.load(path: Self.trace, configuration: .default,
                                                choice: FilterSettings(configuration: .default),
                                                useMagnetometer: PoiseConfiguration.default.filter.magnetometer)

        let page = try pageDebug(view.url + "?t=12.5")
        #expect(page["traceLength"] as? Int == snapshots.count)
        let at = snapshot(at: 12.5, in: snapshots)
        #expect(page["time"] as? Double == at.time)
        let expected = ModelViewMatrix.die(attitude: ModelViewMatrix.bodyAttitude(frdToNED: at.q, world: .enu))
        let drawn = floats(page["modelView"])
        #expect(drawn.count == 16)
        #expect(maxDifference(drawn, expected) < 1e-5, "page \(drawn) vs \(expected)")
        #expect(expected != ModelViewMatrix.die(attitude: .identity))

        // Another frame, relative to the attitude at 5 s ("set reference").
        let relative = try pageDebug(view.url + "?t=12.5&frame=nwu&reference=5")
        let reference = ModelViewMatrix.bodyAttitude(frdToNED: snapshot(at: 5, in: snapshots).q, world: .nwu)
        let attitude = ModelViewMatrix.relative(ModelViewMatrix.bodyAttitude(frdToNED: at.q, world: .nwu), to: reference)
        #expect(maxDifference(floats(relative["modelView"]), ModelViewMatrix.die(attitude: attitude)) < 1e-5)
        let path = screenshot(view.url + "?t=12.5", name: "poise-view-trace")
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func aRecordingShowsItsArmStateOutputsAndChannelNames() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "poise-view-tests-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // The simulated quadrotor arms after about 3.6 s and then drives its motors.
        let recording = directory.appending(path: "quad.csv").path
        let config = repositoryRoot.appending(path: "configs/sim-quad-x.yaml").path
        runProcess(poisePath, ["run", "--config", config, "--duration", "6", "--record", recording, "--quiet"], timeout: 120)
        let names = try TraceSnapshots.channelNames(path: recording)
        #expect(!names.isEmpty)
        let view = try ViewProcess([recording, "--config", config, "--port", "0"])
        let page = try pageDebug(view.url + "?t=5.2")
        #expect(page["arm"] as? String == "ARMED")
        #expect(page["channels"] as? [String] == names)
        let outputs = page["outputs"] as? [Int] ?? []
        #expect(outputs.count == names.count && outputs.contains { $0 != 0 }, "\(outputs)")
        let ticks = page["outputTicks"] as? [String] ?? []
        #expect(!ticks.isEmpty && Set(ticks).count == ticks.count, "\(ticks)")
        screenshot(view.url + "?t=5.2", name: "poise-view-recording")
        // With a reference set, the page says so.
        let relative = try pageDebug(view.url + "?t=5.2&reference=1")
        #expect(relative["referenceShown"] as? Bool == true)
        #expect(page["referenceShown"] as? Bool == false)
    }

    @Test func livePageReceivesTheMAVLinkStreamThroughGarbageAndARestart() throws {
        let view = try ViewProcess(["--udp-port", "0", "--udp-host", "127.0.0.1", "--port", "0"])
        let port = try #require(view.udpPort)
        let attitude = Quaternion(EulerAngles(pitch: 0.4, roll: -0.3, yaw: 1.1))
        let running = Running()
        // Garbage, then a stream, then (after a while) a new sender starting again from 0.
        let feeder = Thread {
            let address = TelemetryAddress(host: "127.0.0.1", port: port)
            if let raw = try? UDPSocket(sendingTo: address) {
                for n in 0 ..< 20 { [UInt8](repeating: UInt8(n), count: n * 7 + 1).withUnsafeBytes { _ = raw.send($0) } }
            }
            var generation = 0
            while running.value {
                guard let sender = try? TelemetrySender(address: address, settings: TelemetrySettings()) else { return }
                sender.start()
                for tick in 0 ..< 300 where running.value {
                    var record = TickRecord()
                    record.tick = UInt64(tick)
                    record.time = Double(tick) / 100
                    record.sampleValid = true
                    record.attitude = attitude
                    sender.offer(record)
                    usleep(10_000)
                }
                sender.stop()
                generation += 1
            }
        }
        feeder.start()
        defer { running.value = false }
        // Real time (virtual time would not wait for the stream): until the page has drawn data.
        let debug = "window.poiseDebug"
        let arrived = "\(debug) && \(debug).snapshots > 20"
        let page = try pageViaDevTools(view.url, waitFor: arrived, evaluate: debug, screenshotName: "poise-view-live") as? [String: Any] ?? [:]
        let expected = ModelViewMatrix.die(attitude: attitude)
        #expect(maxDifference(floats(page["modelView"]), expected) < 1e-5)
        // A second page (a browser reconnecting) gets data from the same running server,
        // which by now has been through at least one sender restart.
        usleep(3_500_000)
        let again = try pageViaDevTools(view.url, waitFor: arrived, evaluate: debug) as? [String: Any] ?? [:]
        #expect(maxDifference(floats(again["modelView"]), expected) < 1e-5)
    }
}

/// A flag the feeder thread reads.
final class Running: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = true
    var value: Bool {
        get { lock.withLock { flag } }
        set { lock.withLock { flag = newValue } }
    }
}
