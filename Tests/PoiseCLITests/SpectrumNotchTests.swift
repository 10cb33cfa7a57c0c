import Foundation
import Testing

/// `poise spectrum` on the shipped quad stand names the rotor's fundamental among its peaks,
/// the harmonics folded by the 400 Hz loop, and proposes the notch to paste; the proposal
/// lands within one bin of the rotor frequency the simulation was configured with.
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote))
struct SpectrumNotchTests {
    /// The rotor frequency the stand's configuration gives at the recorded hover: rotor speed
    /// grows with the command (thrust with its square), max_rotor_speed_rad_s at full command.
    static func configuredRotorHz(recording: URL) throws -> Double {
        let text = try String(contentsOf: recording, encoding: .utf8)
        var maxSpeed: Double? = nil
        var header: [String] = []
        var commands: [Double] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") {
                if line.contains("max_rotor_speed_rad_s:") { maxSpeed = Double(line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) }
                continue
            }
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if header.isEmpty { header = cells; continue }
            guard cells.count == header.count, let arm = header.firstIndex(of: "arm"), Double(cells[arm]) == 1 else { continue }
            let escs = header.indices.filter { header[$0].hasPrefix("out_esc") }
            let mean = escs.compactMap { Double(cells[$0]) }.map { ($0 - 1000) / 1000 }.reduce(0, +) / Double(escs.count)
            commands.append(mean)
        }
        let speed = try #require(maxSpeed, "the recording's embedded configuration has no max_rotor_speed_rad_s")
        let command = commands.reduce(0, +) / Double(max(1, commands.count))
        return speed * command / (2 * .pi)
    }

    @Test func theQuadStandsProposalLandsOnTheRotor() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let recording = dir.appending(path: "quad.csv")
        let config = repositoryRoot.appending(path: "configs/sim-quad-x.yaml").path
        let simulated = try poise(["simulate", "--config", config, "--duration", "20", "--record", recording.path])
        #expect(simulated.status == 0, "\(simulated.error)")
        let expected = try Self.configuredRotorHz(recording: recording)
        let run = try poise(["spectrum", recording.path, "--json"])
        #expect(run.status == 0, "\(run.error)")
        let json = try #require(try JSONSerialization.jsonObject(with: run.output) as? [String: Any])
        let bin = try #require(json["resolution_hz"] as? Double)
        let rotor = try #require(json["rotor"] as? [String: Any], "no rotor in \(json.keys.sorted())")
        let notch = try #require(rotor["notch"] as? [String: Any])
        let center = try #require(notch["center_hz"] as? Double)
        #expect(abs(center - expected) <= bin, "proposed \(center) Hz, the rotor turns at \(expected) Hz (bins of \(bin) Hz)")
        #expect(notch["mode"] as? String == "throttle")
        #expect(notch["harmonics"] as? Int == 3, "\(notch)")
        // The peaks at 56 and 116 Hz are the 2nd and 3rd harmonics folded by the 400 Hz loop.
        let lines = rotor["lines"] as? [[String: Any]] ?? []
        func line(near hz: Double) -> [String: Any]? { lines.first { abs(($0["frequency_hz"] as? Double ?? 0) - hz) <= 2 * bin } }
        #expect(line(near: expected)?["role"] as? String == "fundamental", "\(lines)")
        for (n, folded) in [(2, 400 - 2 * expected), (3, 3 * expected - 400)] {
            let found = line(near: folded)
            #expect(found?["role"] as? String == "harmonic" && found?["harmonic"] as? Int == n && found?["folded"] as? Bool == true,
                    "harmonic \(n) at \(folded) Hz: \(String(describing: found))")
            #expect(abs((found?["true_frequency_hz"] as? Double ?? 0) - Double(n) * expected) <= Double(n) * bin)
        }
        // The lines to paste are a valid configuration.
        let pasted = dir.appending(path: "notch.yaml")
        try ((rotor["config_lines"] as? [String] ?? []).joined(separator: "\n") + "\n").write(to: pasted, atomically: true, encoding: .utf8)
        let check = try poise(["check", pasted.path])
        #expect(check.status == 0, "\(check.error)\(check.text)")
        // The summary says the same in words.
        let text = try poise(["spectrum", recording.path, "-o", dir.appending(path: "psd.svg").path])
        #expect(text.text.contains("fundamental") && text.text.contains("2nd harmonic") && text.text.contains("folded")
                && text.text.contains("center_hz: "), "\(text.text)")
        // The stand runs its notch, so the recording holds the gyroscope the loops got too, and
        // the rotor is measured ≥ 20 dB weaker there than in the raw gyroscope.
        #expect(json["signal"] as? String == "raw")
        let measured = json["measured_attenuation"] as? [[String: Any]] ?? []
        let fundamental = measured.first { $0["harmonic"] as? Int == 1 }
        #expect(abs((fundamental?["frequency_hz"] as? Double ?? 0) - expected) <= 2 * bin, "\(measured)")
        #expect((fundamental?["attenuation_decibels"] as? Double ?? 0) >= 20, "\(measured)")
        #expect(text.text.contains("measured at the rotor lines, raw gyroscope against filtered"), "\(text.text)")
        // --signal filtered shows the filtered gyroscope: its rotor line stands ≥ 20 dB lower.
        func gyroPeakDecibels(_ arguments: [String]) throws -> Double {
            let run = try poise(["spectrum", recording.path, "--json"] + arguments)
            #expect(run.status == 0, "\(run.error)")
            let json = try #require(try JSONSerialization.jsonObject(with: run.output) as? [String: Any])
            let frequencies = try #require(json["frequencies_hz"] as? [Double])
            let channels = try #require(json["channels"] as? [[String: Any]])
            let bins = frequencies.indices.filter { abs(frequencies[$0] - expected) <= 2 * bin }
            return channels.filter { ($0["name"] as? String ?? "").hasPrefix("g") }.flatMap { channel in
                bins.map { ((channel["decibels"] as? [Any])?[$0] as? Double) ?? -.infinity }
            }.max() ?? -.infinity
        }
        let raw = try gyroPeakDecibels([]), filtered = try gyroPeakDecibels(["--signal", "filtered"])
        #expect(raw - filtered >= 20, "rotor line: raw \(raw) dB, filtered \(filtered) dB")
    }
}
