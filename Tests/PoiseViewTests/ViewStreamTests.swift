import Foundation
import PoiseTelemetry
import Testing
@testable import PoiseView

/// The real `poise view` fed hostile or unlucky MAVLink over loopback.
@Suite(.enabled(if: viewAvailable, viewNote), .serialized)
struct ViewStreamTests {
    @Test func nonFiniteValuesAreDroppedAndTheSnapshotsGoOn() throws {
        let relay = try SnapshotRelay()
        let view = try ViewProcess(["--udp-port", "0", "--port", "0", "--plotjuggler", relay.address])
        var feeder = try MAVLinkFeeder(port: try #require(view.udpPort))
        feeder.attitude(timeMs: 1000)
        feeder.value("bad", .nan)
        feeder.value("worse", -.infinity)
        feeder.attitude(timeMs: 2000, q: (.nan, 0, 0, 0))
        feeder.value("good", 7)
        feeder.attitude(timeMs: 3000)
        let snapshots = relay.receive { ($0["time"] as? Double) == 3 }
        let last = try #require(snapshots.last)
        #expect(last["time"] as? Double == 3, "the snapshots stopped after a NaN: \(snapshots.count) arrived")
        let values = last["values"] as? [String: Double] ?? [:]
        #expect(values == ["good": 7])
        #expect(last["nonFiniteDropped"] as? Int == 3)
        #expect(snapshots.allSatisfy { ($0["q"] as? [Double])?.allSatisfy(\.isFinite) == true })
    }

    @Test func namedValuesAreBoundedLeastRecentFirst() throws {
        let relay = try SnapshotRelay()
        let view = try ViewProcess(["--udp-port", "0", "--port", "0", "--plotjuggler", relay.address])
        var feeder = try MAVLinkFeeder(port: try #require(view.udpPort))
        let names = 600
        for n in 0 ..< names {
            feeder.value("n\(n)", Float(n))
            if n % 50 == 49 { usleep(5_000) }  // keep within the socket's receive buffer
        }
        usleep(50_000)
        feeder.value("newest", 1)
        feeder.attitude(timeMs: 1000)
        let snapshot = try #require(relay.receive { _ in true }.last)
        let values = snapshot["values"] as? [String: Double] ?? [:]
        #expect(values.count <= ViewState.maximumNamedValues)
        #expect(values["newest"] == 1)
        #expect(values["n0"] == nil)
        #expect((snapshot["namesEvicted"] as? Int ?? 0) >= names - ViewState.maximumNamedValues - 60)
    }

    @Test func theUDPListenerIsLoopbackByDefaultAndATakenPortIsAnError() throws {
        let first = try ViewProcess(["--udp-port", "0", "--port", "0"])
        #expect(first.banner.contains("MAVLink on UDP 127.0.0.1:"), "\(first.banner)")
        let port = try #require(first.udpPort)
        // A second viewer on the same port must not start and silently take the stream.
        let second = runView(["--udp-port", String(port), "--port", "0"], timeout: 20)
        #expect(second.status == 1)
        #expect(second.error.contains("UDP 127.0.0.1:\(port)") && second.error.contains("already in use"), "\(second.error)")
        // Asking for all interfaces collides too (no SO_REUSEADDR).
        let all = runView(["--udp-port", String(port), "--udp-host", "0.0.0.0", "--port", "0"], timeout: 20)
        #expect(all.status == 1 && all.error.contains("already in use"), "\(all.error)")
    }
}
