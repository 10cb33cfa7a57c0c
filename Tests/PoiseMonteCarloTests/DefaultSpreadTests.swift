import PoiseConfig
import PoiseMonteCarlo
import Testing

/// The built-in spread is drawn around the configured robot, never over it.
@Suite struct DefaultSpreadTests {
    static func robot(_ keys: String) throws -> PoiseConfiguration {
        try PoiseConfiguration.parse(text: "board: {kind: sim}\ncontroller: {kind: balance}\nsimulation:\n  balancing_robot:\n" + keys, file: "robot.yaml")
    }

    static func bounds(_ configuration: PoiseConfiguration) throws -> [String: SpreadForm] {
        let (name, text) = DefaultSpread.text(for: configuration)
        let spread = try SpreadParser.parse(text: text, file: name, configuration: configuration)
        return Dictionary(uniqueKeysWithValues: spread.entries.map { ($0.path, $0.form) })
    }

    /// The shipped configurations leave the imperfections at 0: they draw from the same
    /// ranges as before the spread followed the configuration (their success rates unchanged).
    @Test func theShippedRobotDrawsTheRealisticRanges() throws {
        let b = try Self.bounds(builtIn)
        let p = "simulation.balancing_robot."
        #expect(b[p + "battery_voltage_v"] == .scalar(.uniform(6.6, 8.4)))
        #expect(b[p + "actuator_delay_s"] == .scalar(.uniform(0.001, 0.01)))
        #expect(b[p + "motor_deadband"] == .scalar(.uniform(0, 0.15)))
        #expect(b[p + "static_friction_nm"] == .scalar(.uniform(0.005, 0.02)))
        #expect(b[p + "battery_resistance_ohm"] == .scalar(.uniform(0.1, 0.3)))
        #expect(b[p + "backlash_deg"] == .scalar(.uniform(0, 2)))
        let q = try Self.bounds(quad)
        #expect(q["simulation.quadrotor.actuator_delay_s"] == .scalar(.uniform(0.002, 0.01)))
    }

    @Test func aConfiguredFigureIsTheCentreNotOverwritten() throws {
        let b = try Self.bounds(try Self.robot("""
                battery_voltage_v: 11.1
                actuator_delay_s: 0.009
                motor_deadband: 0.08
                static_friction_nm: 0.01
            """))
        let p = "simulation.balancing_robot."
        #expect(b[p + "battery_voltage_v"] == .scalar(.uniform(9.9, 12.6)))
        #expect(b[p + "actuator_delay_s"] == .scalar(.uniform(0.0045, 0.0135)))
        #expect(b[p + "motor_deadband"] == .scalar(.uniform(0.04, 0.12)))
        #expect(b[p + "static_friction_nm"] == .scalar(.uniform(0.005, 0.015)))
    }

    @Test func aTinyDelayIsDrawnNoShorterThanTheFloor() throws {
        let b = try Self.bounds(try Self.robot("    actuator_delay_s: 0.0002\n"))
        #expect(b["simulation.balancing_robot.actuator_delay_s"] == .scalar(.uniform(0.001, 0.001)))
    }

    /// A figure far off (a gearbox output's torque entered as the bare motor's) still gives
    /// a spread within every key's range (the plant then diverges and is reported so).
    @Test func implausibleFiguresStillGiveAValidSpread() throws {
        let b = try Self.bounds(try Self.robot("    gear_ratio: 1000\n    motor_stall_torque_nm: 0.8\n    motor_no_load_speed_rad_s: 10\n"))
        #expect(b["simulation.balancing_robot.static_friction_nm"] == .scalar(.uniform(10, 10)))
    }

    /// Unknown friction scales with the motor: a small N20 100:1 robot is not drawn a big one's.
    @Test func unconfiguredFrictionScalesWithTheGearMotor() throws {
        let b = try Self.bounds(try Self.robot("    motor_stall_torque_nm: 0.0025\n    gear_ratio: 100\n"))
        guard case .scalar(.uniform(let low, let high)) = b["simulation.balancing_robot.static_friction_nm"] else {
            Issue.record("friction not drawn uniformly"); return
        }
        #expect(abs(low - 0.25 * 0.005 / 0.243) < 1e-5 && abs(high - 0.25 * 0.02 / 0.243) < 1e-5)
    }
}
