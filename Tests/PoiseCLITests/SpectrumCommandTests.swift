import Foundation
import Testing

/// `poise spectrum` end to end: a written trace with known tones and a motor line, its JSON,
/// its picture and its errors.
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote))
struct SpectrumCommandTests {
    static let config = """
        loop: {rate_hz: 1000}
        controller: {kind: quad_x}
        outputs:
          channels:
            - {name: esc1, kind: pca9685, channel: 0, source: motor1, input_min: 0, input_max: 1, pulse_min_us: 1000, pulse_max_us: 2000, safe_us: 1000}
            - {name: esc2, kind: pca9685, channel: 1, source: motor2, input_min: 0, input_max: 1, pulse_min_us: 1000, pulse_max_us: 2000, safe_us: 1000}
        filter:
          gyro:
            low_pass_hz: 200
            notch1: {mode: throttle, center_hz: 100, bandwidth_hz: 50, attenuation_db: 40, reference_throttle: 0.4}

        """

    /// 20 s at 1 kHz: gx carries a 37 Hz tone, gy a 210.5 Hz one, and both a motor line at
    /// 100·√(command / 0.4) Hz while the command steps 0.3 → 0.5 → 0.7.
    static func writeTrace(to url: URL) throws {
        var text = "# rate_hz=1000\nt,ax,ay,az,gx,gy,gz,out_esc1,out_esc2\n"
        var phase = 0.0
        for i in 0..<20_000 {
            let t = Double(i) / 1000
            let command = i < 7000 ? 0.3 : i < 14000 ? 0.5 : 0.7
            phase += 2 * .pi * 100 * (command / 0.4).squareRoot() / 1000
            let noise = 0.01 * sin(Double(i) * 12.9898).truncatingRemainder(dividingBy: 1)
            let gx = 0.2 * sin(2 * .pi * 37 * t) + 0.1 * sin(phase) + noise
            let gy = 0.2 * sin(2 * .pi * 210.5 * t) + 0.1 * sin(phase) - noise
            let pulse = 1000 + 1000 * command
            text += "\(t),0,0,9.81,\(gx),\(gy),\(noise),\(pulse),\(pulse)\n"
        }
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    @Test func jsonListsTheTonesTheThrottleSlicesAndTheFiltersLag() throws {
        let dir = FileManager.default.temporaryDirectory.appending(path: "poise-spectrum-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appending(path: "tones.csv"), config = dir.appending(path: "quad.yaml"), svg = dir.appending(path: "psd.svg")
        try Self.writeTrace(to: trace)
        try Self.config.write(to: config, atomically: true, encoding: .utf8)
        let run = try poise(["spectrum", trace.path, "--config", config.path, "--json", "-o", svg.path, "--resolution", "1"])
        #expect(run.status == 0, "\(run.error)")
        let json = try #require(try JSONSerialization.jsonObject(with: run.output) as? [String: Any])
        let resolution = try #require(json["resolution_hz"] as? Double)
        #expect(resolution <= 1)
        let peaks = try #require(json["peaks"] as? [[String: Any]])
        func peak(near hz: Double) -> [String: Any]? {
            peaks.first { abs(($0["frequency_hz"] as? Double ?? 0) - hz) <= resolution }
        }
        #expect((peak(near: 37)?["axes"] as? [String]) == ["gx"], "\(peaks)")
        #expect((peak(near: 210.5)?["axes"] as? [String]) == ["gy"], "\(peaks)")
        // The motor line at its three speeds: 86.6, 111.8 and 132.3 Hz, on gx and gy.
        for hz in [86.6, 111.8, 132.3] {
            #expect(Set(peak(near: hz)?["axes"] as? [String] ?? []) == ["gx", "gy"], "\(hz) Hz: \(peaks)")
        }
        let throttle = try #require(json["throttle"] as? [String: Any])
        let segments = try #require(throttle["segments"] as? [Int])
        // Bins of 0.05: the three steps fill 0.30, 0.50 and 0.70; a segment across a step goes
        // to the bin of its mean command, in between.
        #expect(segments[6] >= 10 && segments[10] >= 10 && segments[14] >= 10, "\(segments)")
        #expect(segments.indices.filter { segments[$0] > 0 }.allSatisfy { (6...14).contains($0) }, "\(segments)")
        #expect(segments.indices.filter { ![6, 10, 14].contains($0) }.map { segments[$0] }.reduce(0, +) <= 4, "\(segments)")
        let filters = try #require(json["filters"] as? [String: Any])
        let delays = try #require(filters["phase_delay"] as? [[String: Any]])
        #expect(delays.compactMap { $0["frequency_hz"] as? Double } == [10, 30])
        #expect(delays.allSatisfy { ($0["delay_milliseconds"] as? Double ?? 0) > 0 })
        let picture = try String(contentsOf: svg, encoding: .utf8)
        for label in ["frequency (Hz)", "PSD (dB re 1 (rad/s)²/Hz)", "gain (dB)", "mean motor command (0–1)", "gx", "gyro mean, filtered"] {
            #expect(picture.contains(label), "the picture lacks \(label)")
        }
    }

    @Test func summaryPrintsPeaksAndPhaseDelay() throws {
        let dir = FileManager.default.temporaryDirectory.appending(path: "poise-spectrum-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appending(path: "tones.csv"), config = dir.appending(path: "quad.yaml")
        try Self.writeTrace(to: trace)
        try Self.config.write(to: config, atomically: true, encoding: .utf8)
        let run = try poise(["spectrum", trace.path, "--config", config.path, "-o", dir.appending(path: "p.svg").path])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.text.contains("37.0 Hz"), "\(run.text)")
        #expect(run.text.contains("at 10 Hz: gain") && run.text.contains("at 30 Hz: gain"), "\(run.text)")
    }

    @Test func aTraceWithoutGyroscopeOrTooShortIsRefusedWithItsName() throws {
        let dir = FileManager.default.temporaryDirectory.appending(path: "poise-spectrum-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let short = dir.appending(path: "short.csv")
        try "t,ax,ay,az,gx,gy,gz\n0,0,0,9.8,0,0,0\n0.01,0,0,9.8,0,0,0\n".write(to: short, atomically: true, encoding: .utf8)
        let run = try poise(["spectrum", short.path, "-o", dir.appending(path: "p.svg").path])
        #expect(run.status == 1)
        #expect(run.error.contains("short.csv") && run.error.contains("at least 32"), "\(run.error)")
        let bad = try poise(["spectrum", short.path, "--resolution", "0"])
        #expect(bad.status == 64)
    }
}
