import Foundation
import Testing

/// `sensor.calibration` reaches every command that runs a filter over a trace, as a user
/// meets it: a trace with a hard-iron offset (`poise synth --hard-iron`), calibrated with
/// `poise calibrate mag --trace … --config … --save`; then `replay`, `play`, `replay
/// --realtime` and `view TRACE` with that config all show the calibrated attitude, and it is
/// far from the uncalibrated one.
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote))
struct CalibrationEverywhereTests {
    /// The trace, its calibrated config, and `poise replay`'s estimate with and without it.
    struct Bench {
        let directory: URL
        let trace: String
        let config: String
        /// Replay's estimates, ENU, by row: time and body-to-ENU quaternion.
        let calibrated: [(t: Double, q: SIMD4<Double>)]
        let raw: [(t: Double, q: SIMD4<Double>)]

        init() throws {
            directory = try temporaryDirectory()
            trace = directory.appending(path: "tumble.csv").path
            config = directory.appending(path: "bench.yaml").path
            let synth = try poise(["synth", "--motion", "tumble", "--hard-iron", "60,-40,20", "--output", trace])
            #expect(synth.status == 0, "\(synth.error)")
            let calibrate = try poise(["calibrate", "mag", "--trace", trace, "--config", config, "--save"])
            #expect(calibrate.status == 0, "\(calibrate.error)")
            #expect(try String(contentsOfFile: config, encoding: .utf8).contains("magnetometer_hard_iron: [60."))
            let calibratedPath = directory.appending(path: "calibrated.csv").path
            let rawPath = directory.appending(path: "raw.csv").path
            let replay = try poise(["replay", trace, "--config", config, "-o", calibratedPath, "--quiet"])
            #expect(replay.status == 0, "\(replay.error)")
            #expect(try poise(["replay", trace, "-o", rawPath, "--quiet"]).status == 0)
            calibrated = try Self.estimates(calibratedPath)
            raw = try Self.estimates(rawPath)
            #expect(calibrated.count == 3201 && raw.count == 3201)
        }

        static func estimates(_ path: String) throws -> [(t: Double, q: SIMD4<Double>)] {
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
                .filter { !$0.hasPrefix("#") && !$0.hasPrefix("t,") }
                .map { line in
                    let v = line.split(separator: ",").map { Double($0)! }
                    return (v[0], SIMD4(v[1], v[2], v[3], v[4]))
                }
        }

        /// Replay's row at `time` (the nearest: MAVLink's milliseconds are rounded).
        func row(_ rows: [(t: Double, q: SIMD4<Double>)], at time: Double) -> SIMD4<Double> {
            let step = rows[1].t - rows[0].t
            let index = min(max(Int(((time - rows[0].t) / step).rounded()), 0), rows.count - 1)
            return rows[index].q
        }

        /// Largest angle between what a command showed, (time, FRD-to-NED quaternion), and
        /// replay's `rows` at those times, degrees.
        func worstAngle(_ shown: [(t: Double, q: SIMD4<Double>)], against rows: [(t: Double, q: SIMD4<Double>)]) -> Double {
            shown.map { angleDegrees($0.q, mavlink(fromENU: row(rows, at: $0.t))) }.max() ?? .infinity
        }

        /// Smallest such angle, degrees.
        func closestAngle(_ shown: [(t: Double, q: SIMD4<Double>)], against rows: [(t: Double, q: SIMD4<Double>)]) -> Double {
            shown.map { angleDegrees($0.q, mavlink(fromENU: row(rows, at: $0.t))) }.min() ?? 0
        }
    }

    @Test func replayPlayRealtimeAndViewShowTheCalibratedAttitude() throws {
        let bench = try Bench()
        defer { try? FileManager.default.removeItem(at: bench.directory) }
        // The calibration matters: without it the attitude is far off all the way.
        let apart = zip(bench.calibrated, bench.raw).map { angleDegrees($0.q, $1.q) }
        #expect(apart.min()! > 30, "calibrated and raw estimates differ by only \(apart.min()!)°")

        // poise play, fast, to a UDP socket of ours.
        let play = try MAVLinkCatcher()
        let played = try poise(["play", bench.trace, "--config", bench.config, "--telemetry", play.address,
                                "--speed", "20", "--quiet"])
        #expect(played.status == 0, "\(played.error)")
        let playShown = play.finish()
        #expect(playShown.count > 100, "received \(playShown.count) attitudes")
        #expect(bench.worstAngle(playShown, against: bench.calibrated) < 0.1)
        #expect(bench.closestAngle(playShown, against: bench.raw) > 30)

        // poise replay --realtime, at the recorded speed: the first 50 attitudes are enough.
        let realtime = try MAVLinkCatcher()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: poisePath)
        process.arguments = ["replay", bench.trace, "--realtime", "--config", bench.config, "--telemetry", realtime.address, "--quiet"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        #expect(realtime.waitForAttitudes(50))
        // SIGKILL: a child of a test thread starts with the thread's signals blocked.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let realtimeShown = realtime.finish()
        #expect(realtimeShown.count >= 50)
        #expect(bench.worstAngle(realtimeShown, against: bench.calibrated) < 0.1)
        #expect(bench.closestAngle(realtimeShown, against: bench.raw) > 30)

        // poise view TRACE: the page's snapshots, as /trace.json serves them.
        let snapshots = try viewSnapshots(bench.trace, config: bench.config)
        #expect(snapshots.count > 700)
        #expect(bench.worstAngle(snapshots, against: bench.calibrated) < 0.1)
        #expect(bench.closestAngle(snapshots, against: bench.raw) > 30)

        // And without --config, each of them shows the raw attitude (nothing to apply).
        let rawView = try viewSnapshots(bench.trace, config: nil)
        #expect(bench.worstAngle(rawView, against: bench.raw) < 0.1)
    }

    /// A trace that says it is calibrated already gets no second correction, in every path.
    @Test func aCalibratedTraceIsNotCorrectedTwice() throws {
        let bench = try Bench()
        defer { try? FileManager.default.removeItem(at: bench.directory) }
        let marked = bench.directory.appending(path: "marked.csv").path
        try String(contentsOfFile: bench.trace, encoding: .utf8)
            .replacingOccurrences(of: "# calibrated=no\n", with: "# calibrated=yes\n")
            .write(toFile: marked, atomically: true, encoding: .utf8)
        let replayed = bench.directory.appending(path: "marked-replay.csv").path
        #expect(try poise(["replay", marked, "--config", bench.config, "-o", replayed, "--quiet"]).status == 0)
        let rows = try Bench.estimates(replayed)
        #expect(zip(rows, bench.raw).allSatisfy { angleDegrees($0.q, $1.q) < 1e-3 })
        let snapshots = try viewSnapshots(marked, config: bench.config)
        #expect(bench.worstAngle(snapshots, against: bench.raw) < 0.1)
    }
}

// MARK: Frames and angles

/// The angle between two rotations, degrees.
private func angleDegrees(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> Double {
    let dot = min(1, abs((a * b).sum()) / ((a * a).sum() * (b * b).sum()).squareRoot())
    return 2 * acos(dot) * 180 / .pi
}

/// Hamilton product of (w, x, y, z) quaternions.
private func product(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> {
    SIMD4(a.x * b.x - a.y * b.y - a.z * b.z - a.w * b.w,
          a.x * b.y + a.y * b.x + a.z * b.w - a.w * b.z,
          a.x * b.z - a.y * b.w + a.z * b.x + a.w * b.y,
          a.x * b.w + a.y * b.z - a.z * b.y + a.w * b.x)
}

/// MAVLink's FRD-body-to-NED quaternion of a Poise body-to-ENU one: NED from ENU and FRD to
/// the Poise body are each the half turn about (x + y)/√2 (docs/telemetry.md).
private func mavlink(fromENU q: SIMD4<Double>) -> SIMD4<Double> {
    let halfTurn = SIMD4<Double>(0, 0.5.squareRoot(), 0.5.squareRoot(), 0)
    return product(product(halfTurn, q), halfTurn)
}

// MARK: What the commands show

/// ATTITUDE_QUATERNION messages sent to a UDP socket of the test's: (sensor time, q).
private final class MAVLinkCatcher: @unchecked Sendable {
    let fd: Int32
    let port: UInt16
    private let lock = NSLock()
    private var attitudes: [(t: Double, q: SIMD4<Double>)] = []
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)

    var address: String { "127.0.0.1:\(port)" }

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            close(fd)
            throw CocoaError(.fileWriteUnknown)
        }
        var size: Int32 = 8 << 20
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.fd = fd
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in receiveUntilStopped() }
    }

    deinit { close(fd) }

    private func receiveUntilStopped() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n > 0 {
                let found = Self.attitudes(in: buffer[0..<n])
                lock.withLock { attitudes += found }
            } else if lock.withLock({ stopped }) {
                break   // nothing more queued, and asked to stop
            }
        }
        done.signal()
    }

    /// Waits until `count` attitudes have arrived (at most a minute).
    func waitForAttitudes(_ count: Int) -> Bool {
        for _ in 0..<600 {
            if lock.withLock({ attitudes.count }) >= count { return true }
            usleep(100_000)
        }
        return false
    }

    /// Everything received, once what is queued has been read.
    func finish() -> [(t: Double, q: SIMD4<Double>)] {
        lock.withLock { stopped = true }
        done.wait()
        return lock.withLock { attitudes }
    }

    /// The ATTITUDE_QUATERNION (id 31) frames of a datagram: MAVLink 2, payload time_boot_ms
    /// then q1…q4, trailing zero bytes cut.
    static func attitudes(in bytes: ArraySlice<UInt8>) -> [(t: Double, q: SIMD4<Double>)] {
        var found: [(t: Double, q: SIMD4<Double>)] = []
        var i = bytes.startIndex
        while i + 12 <= bytes.endIndex {
            guard bytes[i] == 0xFD else { i += 1; continue }
            let length = Int(bytes[i + 1]), signed = bytes[i + 2] & 1 != 0
            let id = Int(bytes[i + 7]) | Int(bytes[i + 8]) << 8 | Int(bytes[i + 9]) << 16
            let end = i + 10 + length + 2 + (signed ? 13 : 0)
            guard end <= bytes.endIndex else { break }
            if id == 31 {
                var payload = Array(bytes[(i + 10)..<(i + 10 + length)])
                payload += [UInt8](repeating: 0, count: max(0, 20 - payload.count))
                func word(_ at: Int) -> UInt32 {
                    UInt32(payload[at]) | UInt32(payload[at + 1]) << 8 | UInt32(payload[at + 2]) << 16 | UInt32(payload[at + 3]) << 24
                }
                let q = (0..<4).map { Double(Float(bitPattern: word(4 + 4 * $0))) }
                found.append((Double(word(0)) / 1000, SIMD4(q[0], q[1], q[2], q[3])))
            }
            i = end
        }
        return found
    }
}

/// `poise view TRACE [--config CONFIG]`'s snapshots as the page gets them (/trace.json):
/// (sensor time, FRD-to-NED quaternion).
private func viewSnapshots(_ trace: String, config: String?) throws -> [(t: Double, q: SIMD4<Double>)] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: poisePath)
    process.arguments = ["view", trace, "--port", "0", "--udp-port", "0"] + (config.map { ["--config", $0] } ?? [])
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer {
        // SIGKILL: a child of a test thread starts with the thread's signals blocked.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
    // The banner, "poise view: http://127.0.0.1:PORT/", once it is listening.
    var banner = ""
    while !banner.contains("\n") {
        let data = output.fileHandleForReading.availableData
        if data.isEmpty { break }
        banner += String(decoding: data, as: UTF8.self)
    }
    let port = try #require(banner.split(separator: ":").last.flatMap { UInt16($0.prefix { $0.isNumber }) }, "\(banner)")
    let body = try httpGet("/trace.json", port: port)
    let snapshots = try #require(try JSONSerialization.jsonObject(with: body) as? [[String: Any]])
    return snapshots.compactMap { s in
        guard let t = s["time"] as? Double, let q = s["q"] as? [Double], q.count == 4 else { return nil }
        return (t, SIMD4(q[0], q[1], q[2], q[3]))
    }
}

/// The body of a GET of `path` from 127.0.0.1:`port`.
private func httpGet(_ path: String, port: UInt16) throws -> Data {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { throw CocoaError(.fileReadUnknown) }
    let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
    _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = recv(fd, &buffer, buffer.count, 0)
        guard n > 0 else { break }
        response += buffer[0..<n]
    }
    let separator: [UInt8] = [13, 10, 13, 10]
    guard let split = (0..<max(0, response.count - 3)).first(where: { Array(response[$0..<$0 + 4]) == separator }) else {
        throw CocoaError(.fileReadCorruptFile)
    }
    return Data(response[(split + 4)...])
}
