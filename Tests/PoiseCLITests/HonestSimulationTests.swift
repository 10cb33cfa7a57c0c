import Foundation
import Testing

/// Honest reports, as a user meets them: `poise simulate` never reports a diverging plant as
/// a balance, prints "—" for what it did not measure, and says how long the drive outputs
/// sat at a limit.
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote), .serialized) struct HonestSimulationTests {
    /// The shipped robot or quad with these lines added under `simulation:` (or `controller:`).
    func config(_ dir: URL, _ base: String, simulation: [String] = [], controller: [String] = []) throws -> String {
        var text = try String(contentsOf: repositoryRoot.appending(path: "configs/\(base)"), encoding: .utf8)
        if !simulation.isEmpty {
            text = text.replacingOccurrences(of: "\nsimulation:\n", with: "\nsimulation:\n" + simulation.map { "  \($0)\n" }.joined())
        }
        if !controller.isEmpty {
            text = text.replacingOccurrences(of: "\ncontroller:\n", with: "\ncontroller:\n" + controller.map { "  \($0)\n" }.joined())
        }
        let url = dir.appending(path: "robot-\(UUID().uuidString).yaml")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func spread(_ dir: URL, _ text: String) throws -> String {
        let url = dir.appending(path: "spread-\(UUID().uuidString).yaml")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// Numbers a report must never print for a run that was not a measurement.
    func expectNoFakeFigures(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!text.lowercased().contains("nan"), "\(text)", sourceLocation: sourceLocation)
        #expect(!text.contains(" inf"), "\(text)", sourceLocation: sourceLocation)
        #expect(!text.contains("0.000°"), "\(text)", sourceLocation: sourceLocation)
    }

    @Test func theIssuesThousandToOneGearboxFallsAndIsNeverReportedAsABalance() throws {
        // Before: the body flipped to the floor in 2 ms of arming (fixed 1 ms steps on a
        // stiff gearbox) and the report said "worst true pitch 0.00°", the Monte-Carlo "RMS -nan".
        let dir = try temporaryDirectory()
        let robot = try config(dir, "sim-balancing-robot.yaml", simulation: ["balancing_robot:", "  gear_ratio: 1000"])
        let single = try poise(["simulate", "--config", robot, "--quiet"])
        #expect(single.status == 0, "\(single.error)")
        #expect(single.text.contains("true pitch not within 1° at the end"), "\(single.text)")
        #expect(!single.text.contains("DIVERGED"), "stepped finely enough, it is simulated, not diverged: \(single.text)")
        expectNoFakeFigures(single.text)
        let run = try poise(["simulate", "--config", robot, "--trials", "4", "--duration", "6", "--json", "--quiet"])
        #expect(run.status == 0, "\(run.error)")
        let json = try #require(try JSONSerialization.jsonObject(with: run.output) as? [String: Any])
        #expect(json["successes"] as? Int == 0, "\(run.text)")
        #expect(json["diverged"] as? Int == 0)
        #expect(json["pitch_rms_deg"] is NSNull, "no trial settled, so there is no RMS: \(run.text)")
        let tilt = try #require(json["worst_tilt_deg"] as? [String: Double])
        #expect(tilt["min"]! > 45, "a fallen robot's worst tilt: \(tilt)")
        let text = try poise(["simulate", "--config", robot, "--trials", "4", "--duration", "6", "--quiet"])
        expectNoFakeFigures(text.text)
        #expect(text.text.contains("FAILED  failed safe (tiltLimit)"), "\(text.text)")
    }

    @Test func aPlantTooStiffToIntegrateIsReportedDivergedAndFails() throws {
        // A 1000:1 gear motor's output-shaft stall torque and speed entered as the bare
        // motor's: `poise check` accepts the figures, no step can follow them.
        let dir = try temporaryDirectory()
        let robot = try config(dir, "sim-balancing-robot.yaml", simulation: [
            "balancing_robot:", "  gear_ratio: 1000", "  motor_stall_torque_nm: 0.8", "  motor_no_load_speed_rad_s: 10",
        ])
        #expect(try poise(["check", robot]).status == 0)
        let single = try poise(["simulate", "--config", robot, "--quiet"])
        #expect(single.status == 1, "a diverged run is a failure")
        let first = single.text.split(separator: "\n").dropFirst().first.map(String.init) ?? ""
        #expect(first.hasPrefix("DIVERGED at 3."), "said first, with its time: \(single.text)")
        #expect(first.contains("too stiff to integrate"), "and its cause: \(first)")
        #expect(single.text.contains("worst true pitch —, roll — (not measured)"), "\(single.text)")
        #expect(!single.text.contains("true pitch within 1° from"))
        #expect(single.error.contains("poise: the simulated plant diverged at 3."), "\(single.error)")
        expectNoFakeFigures(single.text)

        let common = ["simulate", "--config", robot, "--trials", "3", "--duration", "5", "--quiet"]
        let run = try poise(common + ["--json"])
        #expect(run.status == 0, "\(run.error)")
        let json = try #require(try JSONSerialization.jsonObject(with: run.output) as? [String: Any])
        #expect(json["diverged"] as? Int == 3 && json["successes"] as? Int == 0, "\(run.text)")
        #expect(json["worst_tilt_deg"] is NSNull && json["settling_time_s"] is NSNull && json["pitch_rms_deg"] is NSNull)
        let trials = try #require(json["trials"] as? [[String: Any]])
        for trial in trials {
            #expect(trial["success"] as? Bool == false)
            #expect((trial["diverged_s"] as? Double ?? 0) > 3, "\(trial)")
            #expect((trial["diverged_cause"] as? String ?? "").hasPrefix("too stiff to integrate"))
            #expect(trial["worst_tilt_deg"] is NSNull && trial["pitch_rms_deg"] is NSNull)
        }
        let text = try poise(common)
        #expect(text.text.contains("\ndiverged: 3/3 — the plant's integration broke down"), "\(text.text)")
        #expect(text.text.contains("FAILED  DIVERGED at 3."), "\(text.text)")
        #expect(text.text.contains("settled —  worst tilt —  pitch RMS —"), "\(text.text)")
        expectNoFakeFigures(text.text)
    }

    @Test func aTrialThatNeverSettledPrintsDashesNotZeros() throws {
        // 0.2 s after arming from 9–10°: held, not yet within 1°, and 2 s after arming never came.
        let dir = try temporaryDirectory()
        let tilt = try spread(dir, "simulation.initial_tilt_deg: {uniform: [9, 10]}\n")
        let common = ["simulate", "--spread", tilt, "--trials", "2", "--duration", "3.8", "--quiet"]
        let text = try poise(common)
        #expect(text.status == 0, "\(text.error)")
        #expect(text.text.contains("success: 2/2"), "\(text.text)")
        #expect(text.text.components(separatedBy: "held  settled never  worst tilt —  pitch RMS —").count == 3, "\(text.text)")
        #expect(text.text.contains("true pitch RMS after settling (°, settled trials only): —"))
        expectNoFakeFigures(text.text)
        let json = try #require(try JSONSerialization.jsonObject(with: try poise(common + ["--json"]).output) as? [String: Any])
        #expect(json["never_settled"] as? Int == 2)
        for trial in try #require(json["trials"] as? [[String: Any]]) {
            #expect(trial["settling_time_s"] is NSNull && trial["pitch_rms_deg"] is NSNull && trial["worst_tilt_deg"] is NSNull)
        }
        let single = try poise(["simulate", "--duration", "3.8", "--quiet"])
        #expect(single.text.contains("worst true pitch —, roll — from 2 s after arming"), "\(single.text)")
    }

    @Test func timeAtAnOutputLimitIsReportedAndAHeldButPinnedQuadIsMarginal() throws {
        let dir = try temporaryDirectory()
        // The default robot at rest: its drive is rarely at full.
        let robot = try poise(["simulate", "--quiet"])
        let line = try #require(robot.text.split(separator: "\n").first { $0.hasPrefix("drive outputs at a limit ") }, "\(robot.text)")
        let share = try #require(Double(line.dropFirst("drive outputs at a limit ".count).prefix { $0 != " " }))
        #expect(share < 5 && !line.contains("MARGINAL"), "\(line)")
        #expect(line.contains("left_pwm") && line.contains("right_pwm"))
        // A quad run at 95 % collective throttle: it holds level, with its ESCs pinned.
        let quad = try config(dir, "sim-quad-x.yaml")
        let pinned = try String(contentsOfFile: quad, encoding: .utf8).replacingOccurrences(of: "    throttle: 0.5\n", with: "    throttle: 0.95\n")
        try pinned.write(toFile: quad, atomically: true, encoding: .utf8)
        let single = try poise(["simulate", "--config", quad, "--quiet"])
        #expect(single.text.contains("(esc1 "), "\(single.text)")
        #expect(single.text.contains("MARGINAL: at a limit ≥ 20 %"), "\(single.text)")
        let clock = try spread(dir, "simulation.sample_clock_error: {uniform: [-0.001, 0.001]}\n")
        let run = try poise(["simulate", "--config", quad, "--spread", clock, "--trials", "2", "--json", "--quiet"])
        let json = try #require(try JSONSerialization.jsonObject(with: run.output) as? [String: Any])
        let trials = try #require(json["trials"] as? [[String: Any]])
        for trial in trials {
            let fraction = try #require(trial["saturated_fraction"] as? Double)
            #expect(trial["marginal"] as? Bool == (trial["success"] as? Bool == true && fraction >= 0.2), "\(trial)")
        }
        #expect((json["marginal"] as? Int ?? 0) >= 1, "\(run.text)")
        #expect(json["marginal_saturation_fraction"] as? Double == 0.2)
        let text = try poise(["simulate", "--config", quad, "--spread", clock, "--trials", "2", "--quiet"])
        #expect(text.text.contains("held, MARGINAL"), "\(text.text)")
        #expect(text.text.contains("drive outputs at a limit (% of armed time, any ESC or wheel drive): min "))
    }
}
