import Foundation
import Testing

/// `poise tune` on both simulated rigs, started from gains 3× too low and 3× too high: the
/// tuned gains settle the 10° step (the robot: its release at 10°) at least as fast as the
/// shipped gains do, with at most 20 % overshoot — read from the tool's own measured steps
/// (simulated time).
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote))
struct TuneCommandTests {
    struct Step: Decodable {
        var settlingTime: Double?
        var overshoot: Double
    }
    struct Check: Decodable {
        var axis: String
        var response: Step?
    }
    struct Report: Decodable {
        var before: [Check]
        var after: [Check]
        var values: [String: Double]
        var experimentSeconds: Double
    }

    /// The shipped quad file with every gain scaled by `factor`, in block style (so `--save`
    /// can edit it).
    static func quad(scaledBy factor: Double) throws -> String {
        let shipped = try String(contentsOf: repositoryRoot.appending(path: "configs/sim-quad-x.yaml"), encoding: .utf8)
        func pid(_ name: String, _ kp: Double, _ ki: Double, _ kd: Double) -> String {
            "    \(name):\n      kp: \(kp * factor)\n      ki: \(ki * factor)\n      kd: \(kd * factor)\n"
        }
        var lines = shipped.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeAll { $0.hasPrefix("    pitch_rate:") || $0.hasPrefix("    roll_rate:") }
        let text = lines.joined(separator: "\n")
        return text.replacingOccurrences(of: "    throttle: 0.5\n", with: "    throttle: 0.5\n    angle_gain: \(4.5 * factor)\n"
            + pid("pitch_rate", 0.2, 0.2, 0.004) + pid("roll_rate", 0.2, 0.2, 0.004) + pid("yaw_rate", 0.2, 0.02, 0))
    }

    /// The shipped robot file with the pitch gains (BalanceSettings' defaults) scaled.
    static func robot(scaledBy factor: Double) throws -> String {
        let shipped = try String(contentsOf: repositoryRoot.appending(path: "configs/sim-balancing-robot.yaml"), encoding: .utf8)
        return shipped.replacingOccurrences(of: "  kind: balance\n", with: """
              kind: balance
              balance:
                pitch:
                  kp: \(6 * factor)
                  ki: \(20 * factor)
                  kd: \(0.25 * factor)

            """)
    }

    func tune(_ text: String, save: Bool = false) throws -> (Report, String) {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "rig.yaml").path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let plot = directory.appending(path: "steps.svg").path
        // --force: gains 3× too high settle a single 10° step faster than the tuned ones (with
        // less margin), so the check step would refuse to save them; what is written is checked here.
        let run = try poise(["tune", "--config", path, "--json", "--plot", plot] + (save ? ["--save", "--force"] : []))
        #expect(run.status == 0, "\(run.error)")
        // The picture is where the message says.
        #expect(run.error.contains(" before and after tuning to \(plot)\n"), "\(run.error)")
        #expect(try String(contentsOfFile: plot, encoding: .utf8).contains("10° step"))
        let report = try JSONDecoder().decode(Report.self, from: run.output)
        return (report, try String(contentsOfFile: path, encoding: .utf8))
    }

    /// `text` with `simulation.seed` set (the simulated rig's noise and vibration).
    static func seeded(_ text: String, _ seed: Int?) throws -> String {
        guard let seed else { return text }
        try #require(text.contains("\nsimulation:\n"), "the rig's file has a simulation section")
        return text.replacingOccurrences(of: "\nsimulation:\n", with: "\nsimulation:\n  seed: \(seed)\n")
    }

    func checkTargets(shipped: String, scaled: (Double) throws -> String, seed: Int? = nil) throws {
        let (baseline, _) = try tune(try Self.seeded(shipped, seed))
        for factor in [1.0 / 3, 3.0] {
            let start = try Self.seeded(try scaled(factor), seed)
            let (report, saved) = try tune(start, save: true)
            #expect(report.experimentSeconds > 0 && report.experimentSeconds < 30)
            for check in report.after {
                let reference = baseline.before.first { $0.axis == check.axis }?.response?.settlingTime
                let tuned = check.response?.settlingTime
                #expect(reference != nil && tuned != nil, "×\(factor) \(check.axis): settled")
                if let reference, let tuned {
                    #expect(tuned <= reference, "×\(factor) \(check.axis): \(tuned) s against the shipped gains' \(reference) s")
                }
                #expect((check.response?.overshoot ?? 1) <= 0.2, "×\(factor) \(check.axis): overshoot \(check.response?.overshoot ?? 1)")
            }
            // --save wrote exactly the reported values, and the file still loads.
            for (path, value) in report.values {
                let name = path.split(separator: ".").last!
                #expect(saved.contains("\(name): \(value)") || saved.contains("\(name): \(Int(exactly: value) ?? -1)"), "\(path)")
            }
            let comments = { (text: String) in text.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("#") } }
            #expect(comments(saved) == comments(start), "the file's comments are kept")
        }
    }

    @Test func quadrotorFromBadStartsSettlesAsFastAsTheShippedGains() throws {
        try checkTargets(shipped: try Self.quad(scaledBy: 1), scaled: Self.quad(scaledBy:))
    }

    /// Whatever the rig's noise: the relay's limit cycle wanders and chatters differently with
    /// each seed, and before the point was read over the cycle's band, 5 of 24 runs on seeds
    /// 1–12 failed (no limit cycle found, or a point 90° off that tuned a 31 % overshoot).
    @Test(arguments: 2...12)
    func quadrotorFromBadStartsOnAnySeed(seed: Int) throws {
        try checkTargets(shipped: try Self.quad(scaledBy: 1), scaled: Self.quad(scaledBy:), seed: seed)
    }

    @Test func balancingRobotFromBadStartsSettlesAsFastAsTheShippedGains() throws {
        try checkTargets(shipped: try Self.robot(scaledBy: 1), scaled: Self.robot(scaledBy:))
    }

    @Test func saveNeedsAConfigurationFile() throws {
        let run = try poise(["tune", "--save"])
        #expect(run.status != 0)
        #expect(run.error.contains("--save writes into the configuration file"))
    }
}
