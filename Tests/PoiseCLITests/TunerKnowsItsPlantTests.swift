import Foundation
import Testing

/// `poise tune` as a user with their own robot runs it: the dead time it identifies follows the
/// robot's actuator delay, its gains follow the robot, `--save` and `--save-to` edit the
/// shipped files in place and refuse gains that did worse than the starting ones.
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote)) struct TunerKnowsItsPlantTests {
    struct Report: Decodable {
        struct Loop: Decodable {
            struct Model: Decodable { var delay: Double; var gain: Double; var fallRate: Double? }
            struct Gains: Decodable { var kp: Double }
            var loop: String
            var limitedBy: String?
            var model: Model
            var gains: Gains
        }
        var loops: [Loop]
    }

    /// The shipped robot with these lines under `simulation:`.
    static func robot(_ dir: URL, _ lines: [String], base: String = "configs/sim-balancing-robot.yaml") throws -> String {
        var text = try String(contentsOf: repositoryRoot.appending(path: base), encoding: .utf8)
        text = text.replacingOccurrences(of: "\nsimulation:\n", with: "\nsimulation:\n" + lines.map { "  \($0)\n" }.joined())
        let url = dir.appending(path: "robot-\(UUID().uuidString).yaml")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func tune(_ path: String) throws -> Report {
        let run = try poise(["tune", "--config", path, "--json"])
        #expect(run.status == 0, "\(run.error)")
        return try JSONDecoder().decode(Report.self, from: run.output)
    }

    /// θ(d) − θ(0) within ±30 % of d: the model's dead time is the delay the loop meets.
    @Test func theIdentifiedDeadTimeGrowsWithTheActuatorDelay() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let theta0 = try tune(try Self.robot(dir, [])).loops[0].model.delay
        var previous = theta0
        for ms in [3.0, 6.0, 9.0, 12.0, 15.0] {
            let d = ms / 1000
            let theta = try tune(try Self.robot(dir, ["balancing_robot:", "  actuator_delay_s: \(d)"])).loops[0].model.delay
            #expect(theta > previous, "delay \(ms) ms: θ \(theta * 1000) ms does not grow")
            previous = theta
            // The model's motor pole (the back-EMF's lead, larger on a slower limit cycle) keeps
            // it out of the dead time: without it 15 ms of delay gave 9.7 ms more.
            #expect(abs((theta - theta0) - d) <= 0.3 * d, "delay \(ms) ms: θ \(theta * 1000) ms, θ(0) \(theta0 * 1000) ms")
        }
    }

    /// Robots unlike each other get gains unlike each other, each from its own model and the
    /// limit the report names: the small robot's (short, strong motors) at its aim of 8× its
    /// fall rate, the big one's at its drive for a 10° tilt, the 9 ms one's at its dead time.
    @Test func gainsFollowTheRobot() throws {
        let names = ["small-robot", "big-robot", "hard-robot"]
        let robots = names.map { repositoryRoot.appending(path: "Tests/PoiseCLITests/Robots/\($0).yaml").path }
        let loops = try robots.map { try tune($0).loops[0] }
        #expect(loops.map(\.limitedBy) == ["fall_rate", "drive", "dead_time"], "\(loops.map(\.limitedBy))")
        let kps = loops.map(\.gains.kp)
        #expect(Set(kps.map { ($0 * 100).rounded() }).count == 3, "kp \(kps)")
        for (name, loop) in zip(names, loops) {
            // Linear at the check's 10° tilt: the P term within the output limit (1).
            #expect(loop.gains.kp * 10 * .pi / 180 <= 1.0001, "\(name): kp \(loop.gains.kp)")
            // Gravity's share: the P term more than cancels a²/K.
            let a = try #require(loop.model.fallRate)
            #expect(loop.gains.kp * loop.model.gain > a * a, "\(name)")
        }
        // The tall robot's fall rate is the slower one.
        #expect(try #require(loops[1].model.fallRate) < (try #require(loops[0].model.fallRate)))
    }

    /// The shipped quad writes its gains in flow style: `--save-to` writes them there, the
    /// original untouched, the stale "tuned by" note replaced.
    @Test func saveToWritesTheShippedQuadInFlowStyle() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let shipped = repositoryRoot.appending(path: "configs/sim-quad-x.yaml").path
        let before = try String(contentsOfFile: shipped, encoding: .utf8)
        let out = dir.appending(path: "tuned.yaml").path
        let run = try poise(["tune", "--config", shipped, "--save-to", out, "--force"])
        #expect(run.status == 0, "\(run.error)")
        #expect(try String(contentsOfFile: shipped, encoding: .utf8) == before)
        let tuned = try String(contentsOfFile: out, encoding: .utf8)
        #expect(tuned.contains("    pitch_rate: {kp: "), "\(tuned)")
        #expect(!tuned.contains("tuned by `poise simulate`"))
        #expect(tuned.contains("# Tuned by `poise tune` on the simulated quadrotor"))
        #expect(try poise(["check", out]).status == 0)
    }

    /// Without --save the tool says where each line goes in the user's file (no snippet to
    /// paste under a second `controller:`).
    @Test func thePrintedLinesNameTheirPlaceInTheFile() throws {
        let shipped = repositoryRoot.appending(path: "configs/sim-quad-x.yaml").path
        let run = try poise(["tune", "--config", shipped])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.text.contains("  \(shipped):"), "\(run.text)")
        #expect(!run.text.contains("\ncontroller:\n"))
    }
}
