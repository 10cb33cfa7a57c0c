import Foundation
import PoiseTelemetry
import Testing

// Talking to a real `poise view` over loopback: MAVLink in by UDP, snapshots out through the
// PlotJuggler relay (one JSON datagram per snapshot, the same encoding the pages get), and
// raw TCP for the HTTP side. Every wait is bounded.

/// Sends MAVLink frames to a viewer's UDP port.
struct MAVLinkFeeder {
    let socket: UDPSocket
    var framer = MAVLinkFramer(systemID: 1, componentID: 1)

    init(port: UInt16) throws {
        socket = try UDPSocket(sendingTo: TelemetryAddress(host: "127.0.0.1", port: port))
    }

    mutating func send<M: MAVLinkMessage>(_ message: M) {
        var buffer = [UInt8](repeating: 0, count: MAVLinkFramer.maximumFrameLength)
        let count = buffer.withUnsafeMutableBytes { framer.encode(message, into: $0) }
        buffer.withUnsafeBytes { _ = socket.send(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }

    mutating func attitude(timeMs: UInt32, q: (Float, Float, Float, Float) = (1, 0, 0, 0)) {
        var m = AttitudeQuaternion()
        m.timeBootMs = timeMs
        (m.q1, m.q2, m.q3, m.q4) = q
        send(m)
    }

    mutating func value(_ name: String, _ value: Float) {
        var m = NamedValueFloat()
        m.value = value
        for (i, byte) in name.utf8.prefix(10).enumerated() { m.nameBytes[i] = byte }
        send(m)
    }
}

/// Receives the viewer's relayed snapshots.
struct SnapshotRelay {
    let socket: UDPSocket
    init() throws { socket = try UDPSocket(listeningOn: 0) }
    var address: String { "127.0.0.1:\(socket.localPort)" }

    /// Snapshots until one satisfies `done` or `timeoutSeconds` pass without any datagram.
    func receive(until done: ([String: Any]) -> Bool, timeoutSeconds: Int32 = 10) -> [[String: Any]] {
        var all: [[String: Any]] = []
        while let datagram = socket.receive(timeoutMilliseconds: timeoutSeconds * 1000, maximumLength: 65536) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(datagram)) as? [String: Any] else { continue }
            all.append(object)
            if done(object) { break }
        }
        return all
    }
}

/// Runs `poise view ARGS` to its end (killed after `timeout` s): status and standard error.
func runView(_ arguments: [String], timeout: Double) -> (status: Int32, error: String) {
    let run = runProcess(poisePath, ["view"] + arguments, timeout: timeout, standardError: true)
    return (run.status, run.output)
}

let viewAvailable = FileManager.default.isExecutableFile(atPath: poisePath)
let viewNote: Comment = "needs .build/debug/poise (swift build): skipped"

/// A plain blocking TCP client to 127.0.0.1 with bounded reads and writes.
final class RawClient {
    let descriptor: Int32

    init?(port: UInt16, timeoutSeconds: Int = 10) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard ok == 0 else { close(fd); return nil }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Sends what the socket takes; false once the server has closed or stopped reading.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    /// Everything until the server closes (or the read timeout), at most `limit` bytes.
    func readAll(limit: Int = 1 << 20) -> String {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while data.count < limit {
            let n = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            data += buffer[..<n]
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// The TCP port of a viewer's page, from its banner.
func pagePort(_ view: ViewProcess) -> UInt16? {
    URL(string: view.url)?.port.flatMap { UInt16($0) }
}

/// A GET of `path` on a fresh connection: the whole response.
func get(_ path: String, port: UInt16) -> String {
    guard let client = RawClient(port: port) else { return "" }
    client.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    return client.readAll()
}
