import Foundation
import PoiseControl
import PoiseDeviceSettings
import PoiseFlightCore
import Testing
import PoiseMath
import PoiseTelemetry

/// The repository root (…/Tests/PoiseTelemetryTests/ThisFile.swift → …).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The virtual environment's Python with pymavlink, installed by scripts/setup-test-peer on
/// first use (unless `POISE_TEST_INSTALL=0`, as `scripts/test --quick` sets); nil when PyPI
/// was unreachable.
let peerPython: URL? = {
    let python = repositoryRoot.appending(path: ".venv-peer/bin/python")
    func hasPymavlink() -> Bool {
        guard FileManager.default.isExecutableFile(atPath: python.path) else { return false }
        return run(python, ["-c", "import pymavlink"]) == 0
    }
    if !hasPymavlink(), ProcessInfo.processInfo.environment["POISE_TEST_INSTALL"] != "0" {
        _ = run(repositoryRoot.appending(path: "scripts/setup-test-peer"), [])
    }
    return hasPymavlink() ? python : nil
}()

/// The skip reasons, word for word as scripts/allowed-skips.txt lists the allowed ones.
let pymavlinkNote: Comment = "pymavlink is not installed in .venv-peer (scripts/setup-test-peer installs it)"
let poiseBuiltNote: Comment = "needs the built .build/debug/poise: run `swift build` first"

@discardableResult
func run(_ executable: URL, _ arguments: [String]) -> Int32 {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return -1 }
    process.waitUntilExit()
    return process.terminationStatus
}

/// A running pymavlink peer on a loopback port; `messages()` waits for it to go idle and exit.
final class MAVLinkPeer {
    let process = Process()
    let output = Pipe()
    let port: UInt16

    /// Runs `Tests/peer/SCRIPT` with `arguments`; the first line it prints says which port it bound.
    init(python: URL, script: String = "mavlink_peer.py", arguments: [String]) throws {
        process.executableURL = python
        process.arguments = [repositoryRoot.appending(path: "Tests/peer/\(script)").path] + arguments
        process.standardOutput = output
        try process.run()
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line += byte
        }
        let object = try JSONSerialization.jsonObject(with: line) as? [String: Any]
        port = UInt16(object?["listening"] as? Int ?? 0)
    }

    convenience init(python: URL, idleSeconds: Double = 1.5) throws {
        try self.init(python: python, arguments: ["--idle", String(idleSeconds)])
    }

    /// Every line it printed, once it has finished.
    func messages() throws -> [[String: Any]] {
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
    }
}

@Suite(.enabled(if: peerPython != nil, pymavlinkNote))
struct MAVLinkPeerTests {
    func records() -> [TickRecord] {
        (0 ..< 3).map { i in
            var r = TickRecord()
            r.tick = UInt64(i * 1000)
            r.time = Double(i) + 0.25
            r.sampleValid = true
            r.attitude = Quaternion(EulerAngles(pitch: 0.2 * Float(i + 1), roll: -0.1, yaw: 1.5 - Float(i)))
            r.gyroscope = SIMD3(0.01, -0.02, 0.5)
            r.accelerometer = SIMD3(0.5, -1, 9.7)
            r.magnetometer = SIMD3(21, -3, -42)
            r.filterFlags = i == 1 ? [.magneticDisturbance] : [.atRest]
            r.armState = ArmState(rawValue: UInt8(i))!
            r.outputs = ChannelCommands(count: 3)
            r.outputs[0] = 1_100_000 + UInt32(i) * 100_000
            r.outputs[1] = 2_000_000
            r.outputs[2] = UInt32(i % 2)
            r.latenessNanoseconds = 20_000
            r.computeNanoseconds = 150_000
            return r
        }
    }

    @Test func pymavlinkDecodesEveryMessageTypeWithTheValuesSent() throws {
        let peer = try MAVLinkPeer(python: peerPython!)
        var settings = TelemetrySettings()
        settings.systemID = 42
        settings.componentID = 7
        settings.levelChannels = 0b100
        settings.unixTimeAtSensorZero = 1_700_000_000.125
        let sender = try TelemetrySender(address: TelemetryAddress(host: "127.0.0.1", port: peer.port), settings: settings)
        sender.start()
        for record in records() { #expect(sender.offer(record)) }
        sender.stop()
        let messages = try peer.messages()

        // The same records through the same stream, decoded by Poise: what pymavlink must see.
        var expected: [MAVLinkFrame] = []
        var stream = TelemetryStream(settings: settings)
        for record in records() {
            stream.process(record) { bytes in
                if case .success(let (frame, _)) = MAVLinkDecoder.decode(Array(bytes)) { expected.append(frame) }
            }
        }
        #expect(messages.count == expected.count)
        #expect(messages.allSatisfy { $0["crc_ok"] as? Bool == true && $0["mavlink2"] as? Bool == true })
        #expect(messages.allSatisfy { $0["sysid"] as? Int == 42 && $0["compid"] as? Int == 7 })
        let sequences = messages.compactMap { $0["seq"] as? Int }
        #expect(sequences == Array(0 ..< messages.count))
        let types = Set(messages.compactMap { $0["type"] as? String })
        #expect(types == ["HEARTBEAT", "SYSTEM_TIME", "SYS_STATUS", "ATTITUDE", "ATTITUDE_QUATERNION", "SCALED_IMU", "SERVO_OUTPUT_RAW", "NAMED_VALUE_FLOAT"])

        for (message, frame) in zip(messages, expected) {
            let f = message["fields"] as? [String: Any] ?? [:]
            func int(_ key: String) -> Int? { f[key] as? Int }
            func float(_ key: String) -> Float? { (f[key] as? Double).map(Float.init) }
            #expect(message["id"] as? Int == Int(frame.messageID))
            switch frame.packet {
            case .heartbeat(let m):
                #expect(int("custom_mode") == Int(m.customMode) && int("base_mode") == Int(m.baseMode))
                #expect(int("system_status") == Int(m.systemStatus) && int("mavlink_version") == 3)
            case .systemTime(let m):
                #expect(int("time_unix_usec") == Int(m.timeUnixUsec) && int("time_boot_ms") == Int(m.timeBootMs))
                #expect(m.timeUnixUsec == UInt64(1_700_000_000_125_000) + UInt64(m.timeBootMs) * 1000)
            case .sysStatus(let m):
                #expect(int("onboard_control_sensors_present") == Int(m.sensorsPresent))
                #expect(int("onboard_control_sensors_health") == Int(m.sensorsHealth))
                #expect(int("load") == Int(m.load) && int("battery_remaining") == -1 && int("voltage_battery") == 65535)
            case .attitude(let m):
                #expect(int("time_boot_ms") == Int(m.timeBootMs))
                #expect(float("roll") == m.roll && float("pitch") == m.pitch && float("yaw") == m.yaw)
                #expect(float("yawspeed") == m.yawSpeed && float("rollspeed") == m.rollSpeed)
            case .attitudeQuaternion(let m):
                #expect(float("q1") == m.q1 && float("q2") == m.q2 && float("q3") == m.q3 && float("q4") == m.q4)
                #expect(float("pitchspeed") == m.pitchSpeed)
            case .scaledIMU(let m):
                #expect(int("xacc") == Int(m.xacc) && int("zacc") == Int(m.zacc) && int("ygyro") == Int(m.ygyro) && int("zmag") == Int(m.zmag))
            case .servoOutputRaw(let m):
                #expect(int("time_usec") == Int(m.timeUsec))
                for i in 0 ..< 16 { #expect(int("servo\(i + 1)_raw") == Int(m.servo[i])) }
            case .namedValueFloat(let m):
                #expect(f["name"] as? String == m.name && float("value") == m.value)
            default:
                Issue.record("the stream sent a ground station's message: \(frame.packet)")
            }
        }
        // Spot-check against the records themselves, not only Poise's own decoder.
        let attitudes = messages.filter { $0["type"] as? String == "ATTITUDE" }.compactMap { $0["fields"] as? [String: Any] }
        #expect(attitudes.count == 3)
        #expect(abs((attitudes.first?["pitch"] as? Double ?? 0) - 0.2) < 1e-5)
        let servos = messages.filter { $0["type"] as? String == "SERVO_OUTPUT_RAW" }.compactMap { $0["fields"] as? [String: Any] }
        #expect(servos.map { $0["servo1_raw"] as? Int } == [1100, 1200, 1300])
        #expect(servos.map { $0["servo3_raw"] as? Int } == [0, 1, 0])
        let late = messages.compactMap { $0["fields"] as? [String: Any] }.filter { $0["name"] as? String == "comp_p99" }
        #expect(late.map { $0["value"] as? Double } == [150, 150, 150])
    }
}
