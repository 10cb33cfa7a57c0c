import Foundation
import Testing

/// A requested stop (the end of --duration, SIGINT, SIGTERM) is a disarm with its own reason,
/// not a failsafe: the recording's last tick, the telemetry's last frames and the summary say
/// so; the outputs still go safe in that tick.
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote))
struct RequestedStopTests {
    /// The recording's rows as column → value, by its header.
    func rows(_ path: String) throws -> [[String: Double]] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        let names = lines[0].split(separator: ",").map(String.init)
        return lines.dropFirst().map { line in
            Dictionary(uniqueKeysWithValues: zip(names, line.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) ?? .nan }))
        }
    }

    @Test func theEndOfARunDisarmsWithItsOwnReasonAndOutputsSafe() throws {
        let directory = try temporaryDirectory()
        let recording = directory.appending(path: "run.csv").path
        let catcher = try DatagramCatcher()
        let run = try poise(["run", "--duration", "5", "--record", recording, "--telemetry", catcher.address])
        #expect(run.status == 0, "\(run.error)")
        let rows = try rows(recording)
        let last = try #require(rows.last)
        #expect(last["stop"] == 1)
        #expect(last["arm"] == 0, "the last tick records disarmed (0), not failsafe (2)")
        #expect(last["event"] == 7, "the event is `stop requested` (SafetyReason 7)")
        // Safe in that tick: every output at its safe value (the built-in robot's are all 0).
        for (name, value) in last where name.hasPrefix("out_") { #expect(value == 0, "\(name)") }
        #expect(!rows.contains { $0["arm"] == 2 && $0["event"] == 7 })
        // The summary of a normal stop has no failsafe in it.
        #expect(run.error.contains(" s: stopped\n"), "\(run.error)")
        #expect(!run.error.contains("failsafe") && !run.error.contains("failed safe"), "\(run.error)")
        #expect(run.error.contains("poise: finished after 5.00 s; outputs safe"), "\(run.error)")

        let frames = catcher.frames()
        let texts = frames.filter { $0.id == 253 }.map { (severity: $0.payload[0], text: Self.text($0.payload)) }
        let stop = try #require(texts.last)
        #expect(stop.text == "disarmed: stop requested")
        #expect(stop.severity == 6, "INFO, not CRITICAL (2)")
        #expect(!texts.contains { $0.text.contains("failsafe") }, "\(texts)")
        // The last HEARTBEAT: disarmed (custom_mode's arm state 0, no SAFETY_ARMED bit), STANDBY.
        let heartbeat = try #require(frames.last { $0.id == 0 })
        #expect(heartbeat.payload[0] == 0, "arm state in custom_mode")
        #expect(heartbeat.payload[6] & 128 == 0, "base_mode without SAFETY_ARMED")
        #expect(heartbeat.payload[7] == 3, "system_status STANDBY")
        // It is sent after the stop's STATUSTEXT: the last word of the run.
        #expect(frames.lastIndex { $0.id == 0 }! > frames.lastIndex { $0.id == 253 }!)
    }

    @Test func sigtermDisarmsAndARecordingPrintsNoConvergenceWarning() throws {
        let directory = try temporaryDirectory()
        let recording = directory.appending(path: "rec.csv").path
        let notify = try NotifySocket(path: directory.appending(path: "notify").path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: poisePath)
        process.arguments = ["record", recording, "--duration", "60"]
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = notify.path
        process.environment = environment
        let standardError = try process.runWritingStandardError(into: directory)
        #expect(notify.waitFor("READY=1"))
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(standardError())")
        let error = standardError()
        #expect(error.contains("stopped by SIGTERM"), "\(error)")
        #expect(!error.contains("filter not converged"), "\(error)")
        #expect(!error.contains("failsafe") && !error.contains("failed safe"), "\(error)")
        let last = try #require(try rows(recording).last)
        #expect(last["arm"] == 0 && last["event"] == 7 && last["stop"] == 1)
    }

    static func text(_ payload: [UInt8]) -> String {
        String(decoding: payload[1..<min(51, payload.count)].prefix { $0 != 0 }, as: UTF8.self)
    }
}

/// MAVLink 2 frames sent to a UDP socket of the test's, read after the sender has finished
/// (the kernel keeps them meanwhile: an 8 MiB receive buffer).
final class DatagramCatcher {
    let fd: Int32
    let port: UInt16
    var address: String { "127.0.0.1:\(port)" }

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { close(fd); throw CocoaError(.fileWriteUnknown) }
        var size: Int32 = 8 << 20
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        self.fd = fd
    }

    deinit { close(fd) }

    /// Every frame queued, in order: message id and payload (MAVLink 2 cuts trailing zero
    /// bytes; they are put back up to 64 bytes).
    func frames() -> [(id: Int, payload: [UInt8])] {
        var found: [(id: Int, payload: [UInt8])] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard n > 0 else { break }
            var i = 0
            while i + 12 <= n {
                guard buffer[i] == 0xFD else { i += 1; continue }
                let length = Int(buffer[i + 1]), signed = buffer[i + 2] & 1 != 0
                let id = Int(buffer[i + 7]) | Int(buffer[i + 8]) << 8 | Int(buffer[i + 9]) << 16
                let end = i + 10 + length + 2 + (signed ? 13 : 0)
                guard end <= n else { break }
                var payload = Array(buffer[(i + 10)..<(i + 10 + length)])
                payload += [UInt8](repeating: 0, count: max(0, 64 - payload.count))
                found.append((id, payload))
                i = end
            }
        }
        return found
    }
}
