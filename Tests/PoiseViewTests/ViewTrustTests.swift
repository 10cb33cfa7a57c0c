import Foundation
import PoiseDeviceSettings
import PoiseFlightCore
import PoiseMath
import PoiseTelemetry
import Testing
@testable import PoiseView

/// `poise view` trusts no one by default: its page and WebSocket answer only this viewer's own
/// names and pages, with the link's key it shows only signed data, and it says what it cannot
/// vouch for (unsigned data, two senders with one system id, a port that is taken).
@Suite(.enabled(if: viewAvailable, viewNote), .serialized)
struct ViewTrustTests {
    /// Sends `request` on a fresh connection; the status line and the body.
    func exchange(_ request: String, port: UInt16) -> (status: String, text: String) {
        guard let client = RawClient(port: port) else { return ("", "") }
        client.send(request)
        let text = client.readAll(limit: 1 << 16)
        return (text.components(separatedBy: "\r\n").first ?? "", text)
    }

    static let upgrade = "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"

    @Test func aTakenTCPPortIsSaidPlainly() throws {
        let first = try ViewProcess(["--udp-port", "0", "--port", "0"])
        let port = try #require(pagePort(first))
        let second = runView(["--udp-port", "0", "--port", String(port)], timeout: 20)
        #expect(second.status == 1)
        #expect(second.error.contains("TCP 127.0.0.1:\(port)") && second.error.contains("already in use")
                && second.error.contains("--port"), "\(second.error)")
        #expect(!second.error.contains("errno"), "\(second.error)")
    }

    @Test func pagesAndSocketsAnswerOnlyThisViewersNamesAndPages() throws {
        let view = try ViewProcess(["--udp-port", "0", "--port", "0"])
        let port = try #require(pagePort(view))
        // The viewer's own names: answered.
        for host in ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"] {
            let own = exchange("GET / HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n", port: port)
            #expect(own.status.contains("200"), "\(host): \(own.status)")
        }
        // DNS rebinding: the attacker's name in Host.
        let rebound = exchange("GET / HTTP/1.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n", port: port)
        #expect(rebound.status.contains("403"), "\(rebound.status)")
        #expect(rebound.text.contains("attacker.example") && rebound.text.contains("--allow-host"), "\(rebound.text)")
        let info = exchange("GET /info.json HTTP/1.1\r\nHost: attacker.example:\(port)\r\nConnection: close\r\n\r\n", port: port)
        #expect(info.status.contains("403"), "\(info.status)")
        // Another site's page opening the WebSocket: refused with the reason.
        let foreign = exchange("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://evil.example\r\n\(Self.upgrade)\r\n", port: port)
        #expect(foreign.status.contains("403") && foreign.text.contains("evil.example"), "\(foreign.text)")
        let otherPort = exchange("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://127.0.0.1:1\r\n\(Self.upgrade)\r\n", port: port)
        #expect(otherPort.status.contains("403"), "\(otherPort.status)")
        // The viewer's own page: upgraded.
        guard let client = RawClient(port: port, timeoutSeconds: 5) else { Issue.record("no connection"); return }
        client.send("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://127.0.0.1:\(port)\r\n\(Self.upgrade)\r\n")
        var buffer = [UInt8](repeating: 0, count: 512)
        let n = buffer.withUnsafeMutableBytes { recv(client.descriptor, $0.baseAddress, $0.count, 0) }
        let reply = n > 0 ? String(decoding: buffer[..<n], as: UTF8.self) : ""
        #expect(reply.hasPrefix("HTTP/1.1 101"), "\(reply)")
    }

    @Test func anotherNameCanBeAllowed() throws {
        let view = try ViewProcess(["--udp-port", "0", "--port", "0", "--allow-host", "robot.local"])
        let port = try #require(pagePort(view))
        let named = exchange("GET / HTTP/1.1\r\nHost: robot.local:\(port)\r\nConnection: close\r\n\r\n", port: port)
        #expect(named.status.contains("200"), "\(named.status)")
    }

    /// A key file as `poise run` takes it (64 hexadecimal digits, mode 600).
    static func keyFile(in directory: URL) throws -> (path: String, key: MAVLinkSigningKey) {
        let bytes = (0 ..< 32).map { UInt8(($0 * 37 + 11) & 0xFF) }
        let url = directory.appending(path: "link.key")
        try (bytes.map { String(format: "%02x", $0) }.joined() + "\n").write(to: url, atomically: true, encoding: .utf8)
        chmod(url.path, 0o600)
        return (url.path, try MAVLinkSigningKey(bytes: bytes))
    }

    /// A signed sender (as `poise run` with the key sends) with `attitude`, for `seconds`.
    static func sendSigned(to port: UInt16, key: MAVLinkSigningKey, attitude: Quaternion, seconds: Double) throws {
        let sender = try TelemetrySender(address: TelemetryAddress(host: "127.0.0.1", port: port), settings: TelemetrySettings())
        sender.sign(with: key)
        sender.start()
        for tick in 0 ..< Int(seconds * 100) {
            var record = TickRecord()
            record.tick = UInt64(tick)
            record.time = Double(tick) / 100
            record.sampleValid = true
            record.attitude = attitude
            sender.offer(record)
            usleep(10_000)
        }
        sender.stop()
    }

    /// HEARTBEAT armed and ATTITUDE_QUATERNION of a 120° turn, unsigned, from another socket.
    static func forge(_ feeder: inout MAVLinkFeeder, timeMs: UInt32) {
        var heartbeat = Heartbeat()
        heartbeat.customMode = 1
        feeder.send(heartbeat)
        feeder.attitude(timeMs: timeMs, q: (0.5, 0.5, 0.5, 0.5))
    }

    @Test func withTheLinksKeyForgedUnsignedFramesAreNeverShown() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "poise-view-trust-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (path, key) = try Self.keyFile(in: directory)
        let relay = try SnapshotRelay()
        let view = try ViewProcess(["--udp-port", "0", "--port", "0", "--plotjuggler", relay.address, "--signing-key-file", path])
        let port = try #require(view.udpPort)
        let level = Quaternion.identity
        let forger = Thread {
            guard var feeder = try? MAVLinkFeeder(port: port) else { return }
            for n in 0 ..< 200 {
                Self.forge(&feeder, timeMs: UInt32(n * 10))
                usleep(10_000)
            }
        }
        forger.start()
        try Self.sendSigned(to: port, key: key, attitude: level, seconds: 2)
        let snapshots = relay.receive(until: { ($0["refusedFrames"] as? Int ?? 0) > 20 }, timeoutSeconds: 3)
        #expect(!snapshots.isEmpty)
        // The signed stream's attitude (level: FRD→NED of a level board), never the forged roll.
        for snapshot in snapshots {
            let q = snapshot["q"] as? [Double] ?? []
            #expect(q.count == 4 && q.contains { abs($0 - 0.5) > 0.1 } && snapshot["arm"] as? Int != 1, "a forged frame was shown: \(snapshot)")
            #expect(snapshot["signing"] as? String == "verified")
        }
        let last = try #require(snapshots.last)
        #expect((last["refusedFrames"] as? Int ?? 0) > 20 && (last["lastRefusal"] as? String) == "unsigned", "\(last)")
    }

    @Test func withoutAKeyTheDataIsMarkedUnsigned() throws {
        let relay = try SnapshotRelay()
        let view = try ViewProcess(["--udp-port", "0", "--port", "0", "--plotjuggler", relay.address])
        var feeder = try MAVLinkFeeder(port: try #require(view.udpPort))
        feeder.attitude(timeMs: 1000)
        let last = try #require(relay.receive { _ in true }.last)
        #expect(last["signing"] as? String == "unsigned")
    }

    @Test func twoSendersWithOneSystemIdAreFlagged() throws {
        let relay = try SnapshotRelay()
        let view = try ViewProcess(["--udp-port", "0", "--port", "0", "--plotjuggler", relay.address])
        let port = try #require(view.udpPort)
        var first = try MAVLinkFeeder(port: port), second = try MAVLinkFeeder(port: port)
        // The second started earlier: its sequence numbers and clock are elsewhere.
        for _ in 0 ..< 90 { second.value("skip", 0) }
        for n in 0 ..< 40 {
            first.attitude(timeMs: UInt32(1000 + n * 20))
            second.attitude(timeMs: UInt32(60_000 + n * 20))
            usleep(2_000)
        }
        let seen = relay.receive(until: { $0["duplicateSystem"] as? Bool == true }, timeoutSeconds: 3)
        #expect(seen.last?["duplicateSystem"] as? Bool == true, "two interleaved senders with system id 1 were never flagged")
        // One sender alone, restarted once, is not two.
        let lone = try SnapshotRelay()
        let other = try ViewProcess(["--udp-port", "0", "--port", "0", "--plotjuggler", lone.address])
        var sender = try MAVLinkFeeder(port: try #require(other.udpPort))
        for n in 0 ..< 30 { sender.attitude(timeMs: UInt32(5000 + n * 20)) }
        var restarted = try MAVLinkFeeder(port: try #require(other.udpPort))
        for n in 0 ..< 30 { restarted.attitude(timeMs: UInt32(n * 20)) }
        let alone = lone.receive(until: { ($0["time"] as? Double) == 0.58 }, timeoutSeconds: 3)
        #expect(!alone.isEmpty && alone.allSatisfy { $0["duplicateSystem"] as? Bool != true })
    }
}
