import Foundation
import Testing

/// The Monte-Carlo, `check` and the spread as a user with their own robot meets them: the
/// four robots written from the docs alone (Tests/PoiseCLITests/Robots: a 2.2 kg robot on
/// 12 V 50:1 motors, the same with a 9 ms delay and an old pack, a 0.35 kg robot on N20 100:1
/// motors, a 5-inch quad).
@Suite(.enabled(if: poiseIsBuilt, poiseBuiltNote)) struct UsersOwnRobotTests {
    static func robot(_ name: String) -> String { repositoryRoot.appending(path: "Tests/PoiseCLITests/Robots/\(name).yaml").path }

    /// The values drawn for `key` over `count` short trials.
    func drawn(_ config: String, _ key: String, count: Int = 6) throws -> (values: [Double], report: String) {
        let run = try poise(["simulate", "--config", config, "--trials", "\(count)", "--duration", "1", "--json", "--quiet"])
        #expect(run.status == 0 || run.status == 1, "\(run.error)")
        let json = try #require(try JSONSerialization.jsonObject(with: run.output) as? [String: Any])
        let trials = try #require(json["trials"] as? [[String: Any]])
        return (trials.compactMap { ($0["drawn"] as? [String: Any])?[key] as? Double }, run.text)
    }

    @Test func anElevenVoltRobotIsDrawnAroundElevenVolts() throws {
        let (volts, _) = try drawn(Self.robot("big-robot"), "simulation.balancing_robot.battery_voltage_v")
        #expect(volts.count == 6)
        // A 3S pack from nearly flat to full: 9.9–12.6 V, never a 2S pack's 6.6–8.4 V.
        #expect(volts.allSatisfy { (9.9...12.6).contains($0) }, "\(volts)")
        let spread = try poise(["simulate", "--config", Self.robot("big-robot"), "--print-spread", "--trials", "1"])
        #expect(spread.text.contains("simulation.balancing_robot.battery_voltage_v: {uniform: [9.9, 12.6]}"), "\(spread.text)")
    }

    @Test func theNineMillisecondRobotIsNotTheBigOne() throws {
        let key = "simulation.balancing_robot.actuator_delay_s"
        let (hard, hardReport) = try drawn(Self.robot("hard-robot"), key)
        let (big, bigReport) = try drawn(Self.robot("big-robot"), key)
        // Around each one's own delay: 4.5–13.5 ms and 1–3 ms.
        #expect(hard.allSatisfy { (0.0045...0.0135).contains($0) }, "\(hard)")
        #expect(big.allSatisfy { (0.001...0.003).contains($0) }, "\(big)")
        #expect(hardReport != bigReport)
    }

    @Test func checkWarnsAboutAMissingDelayAndImplausibleFigures() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appending(path: "robot.yaml").path
        try """
            board: {kind: sim}
            controller:
              kind: balance
            sensor:
              calibration:
                gyroscope_bias: [5, 0, 0]
            simulation:
              balancing_robot:
                body_mass_kg: 0.3
                motor_stall_torque_nm: 0.8
                motor_no_load_speed_rad_s: 10
                gear_ratio: 1000
                battery_voltage_v: 60
                motor_rated_voltage_v: 6
                wheel_radius_m: 0.05

            """.write(toFile: file, atomically: true, encoding: .utf8)
        let run = try poise(["check", file])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.text == "\(file): ok\n")
        let lines = run.error.split(separator: "\n").map(String.init)
        func line(_ key: String) -> String? { lines.first { $0.contains(": \(key): warning: ") } }
        #expect(line("sensor.calibration.gyroscope_bias")?.hasPrefix("\(file):6:") == true, "\(run.error)")
        #expect(line("simulation.balancing_robot.motor_no_load_speed_rad_s")?.hasPrefix("\(file):11:") == true, "\(run.error)")
        #expect(line("simulation.balancing_robot.motor_stall_torque_nm")?.hasPrefix("\(file):10:") == true, "\(run.error)")
        #expect(line("simulation.balancing_robot.battery_voltage_v")?.hasPrefix("\(file):13:") == true, "\(run.error)")
        #expect(line("controller.balance.wheel_radius_m")?.hasPrefix("\(file):15:") == true, "\(run.error)")
        #expect(line("simulation.balancing_robot.actuator_delay_s")?.contains("real motor drivers and ESCs have delay") == true, "\(run.error)")
    }

    @Test func anImpossibleQuadIsWarnedAbout() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appending(path: "quad.yaml").path
        try "board: {kind: sim}\ncontroller: {kind: quad_x}\nsimulation:\n  quadrotor:\n    inertia_kg_m2: [0.002, 0.002, 0.005]\n    actuator_delay_s: 0.003\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let run = try poise(["check", file])
        #expect(run.status == 0)
        #expect(run.error.hasPrefix("\(file):5:") && run.error.contains("simulation.quadrotor.inertia_kg_m2: warning: z = 0.005"), "\(run.error)")
    }

    @Test func theShippedAndTheFourRobotsCheckWithoutWarnings() throws {
        let files = ["sim-balancing-robot", "sim-balancing-robot-drive", "sim-quad-x"].map { repositoryRoot.appending(path: "configs/\($0).yaml").path }
            + ["big-robot", "hard-robot", "small-robot", "quad-5inch"].map(Self.robot)
        let run = try poise(["check"] + files)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error == "")
    }
}
