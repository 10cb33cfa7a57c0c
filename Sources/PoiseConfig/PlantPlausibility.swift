import Yams

/// Figures a file may write — each within its key's range, so the file loads — that look like
/// wrong units or an impossible body: a gear motor's output-shaft figures entered as the bare
/// motor's, a pack ten times the motors' voltage, a quadrotor whose yaw inertia exceeds the
/// other two together, a gyroscope bias in degrees per second written as rad/s, a plant with
/// no actuator delay. `poise check` prints each as a warning with its position, as it prints
/// deprecations; the file still passes.
public enum PlantPlausibility {
    /// Above this a gyroscope bias is not an MPU-9250's (its datasheet's ±5 °/s zero-rate
    /// offset is 0.09 rad/s): 20 °/s, the size of a bias in °/s typed as rad/s.
    public static let gyroscopeBiasLimit = 0.35
    /// The wheels' stall torque may lift the robot's weight at the wheel's radius this many
    /// times before it looks like an output shaft's torque entered as the bare motor's.
    public static let wheelTorqueLimit = 50.0
    /// A bare DC motor's free speed is thousands of rpm; a geared one's output below this, rad/s.
    public static let bareMotorSpeedFloor = 150.0
    /// A pack this many times the motors' rated voltage burns them.
    public static let batteryOverRated = 3.0
    /// The controller's wheel radius and the plant's may differ by this fraction.
    public static let wheelRadiusTolerance = 0.05

    /// The warnings for `text` (named `file`), which must already load.
    public static func warnings(text: String, file: String) -> [ConfigError] {
        guard let table = try? ConfigParser.parse(text: text, file: file) else { return [] }
        let written = positions(text: text, file: file)
        var notes: [ConfigError] = []
        func warn(_ path: String, _ message: String, at others: [String] = []) {
            let mark = ([path] + others).lazy.compactMap { written[$0] }.first
            notes.append(ConfigError(file: file, line: mark?.line, column: mark?.column, key: path, message: "warning: " + message))
        }
        let simulated = table.string("board.kind") == "sim"
        let kind = table.string("controller.kind")
        let plant = table.string("simulation.plant")
        let robot = plant == "balancing_robot" || (plant == "auto" && kind == "balance")
        let quad = plant == "quadrotor" || (plant == "auto" && (kind == "quad_x" || kind == "quad_plus"))

        if let note = gyroscopeBiasWarning(table.vector3("sensor.calibration.gyroscope_bias")) {
            warn("sensor.calibration.gyroscope_bias", note)
        }
        guard simulated else { return notes }
        if robot {
            let r = "simulation.balancing_robot."
            func n(_ key: String) -> Double { table.number(r + key) }
            let ratio = n("gear_ratio")
            if n("motor_no_load_speed_rad_s") < bareMotorSpeedFloor && ratio >= 5 {
                warn(r + "motor_no_load_speed_rad_s", "\(ConfigFormat.number(n("motor_no_load_speed_rad_s"))) rad/s is a gearbox "
                    + "output's speed, not a bare motor's (thousands of rpm): multiply the output's by gear_ratio")
            }
            let weight = (n("body_mass_kg") + 2 * n("wheel_mass_kg")) * 9.80665 * n("wheel_radius_m")
            let wheelStall = 2 * n("motor_stall_torque_nm") * ratio
            if wheelStall > wheelTorqueLimit * weight {
                warn(r + "motor_stall_torque_nm", "the two wheels' stall torque (\(ConfigFormat.number(rounded(wheelStall))) N·m "
                    + "through gear_ratio \(ConfigFormat.number(ratio))) would lift the robot's weight \(Int(wheelStall / weight))× over: "
                    + "it looks like the gearbox output's torque; the bare motor's is the output's ÷ gear_ratio")
            }
            if n("battery_voltage_v") > batteryOverRated * n("motor_rated_voltage_v") {
                warn(r + "battery_voltage_v", "a \(ConfigFormat.number(n("battery_voltage_v"))) V pack on motors rated "
                    + "\(ConfigFormat.number(n("motor_rated_voltage_v"))) V drives them at \(Int(n("battery_voltage_v") / n("motor_rated_voltage_v")))× "
                    + "their voltage: check both figures (motor_rated_voltage_v is what the stall torque and free speed are given at)",
                     at: [r + "motor_rated_voltage_v"])
            }
            let controllerRadius = table.number("controller.balance.wheel_radius_m")
            if abs(controllerRadius - n("wheel_radius_m")) > wheelRadiusTolerance * n("wheel_radius_m") {
                warn("controller.balance.wheel_radius_m", "\(ConfigFormat.number(controllerRadius)) m, but the simulated robot's "
                    + "wheels are \(ConfigFormat.number(n("wheel_radius_m"))) m (simulation.balancing_robot.wheel_radius_m): "
                    + "write the one radius in both", at: [r + "wheel_radius_m"])
            }
        }
        if quad {
            let q = "simulation.quadrotor."
            let inertia = table.vector3(q + "inertia_kg_m2")
            if let axis = (0..<3).first(where: { inertia[$0] > inertia[($0 + 1) % 3] + inertia[($0 + 2) % 3] }) {
                warn(q + "inertia_kg_m2", "\(CalibrationLimits.axis(axis)) = \(inertia[axis]) kg·m² exceeds the other two together; "
                    + "no rigid body has that (each principal moment is at most the sum of the others): check the order x, y, z and the units")
            }
        }
        for (section, figures) in [("simulation.balancing_robot.", robot ? robotFigures : []), ("simulation.quadrotor.", quad ? quadFigures : [])] {
            let path = section + "actuator_delay_s"
            guard !figures.isEmpty, table.number(path) == 0 else { continue }
            let describesOwn = figures.contains { written[section + $0] != nil }
            guard written[path] != nil || describesOwn else { continue }
            warn(path, "no delay (0 s): real motor drivers and ESCs have delay (the tick, the PWM period, the motor's inductance: 1–10 ms, "
                + "docs/simulation.md); without it the simulation and `poise tune` see none, and the Monte-Carlo draws "
                + "1–10 ms for it", at: figures.map { section + $0 })
        }
        return notes
    }

    /// Why a gyroscope bias (rad/s) looks like degrees per second typed as radians; nil when
    /// it does not (also `poise synth --gyroscope-bias`).
    public static func gyroscopeBiasWarning(_ bias: SIMD3<Double>) -> String? {
        guard let axis = (0..<3).first(where: { abs(bias[$0]) > gyroscopeBiasLimit }) else { return nil }
        return "\(CalibrationLimits.axis(axis)) = \(ConfigFormat.number(bias[axis])) rad/s "
            + "(\(ConfigFormat.number((bias[axis] * 180 / .pi * 10).rounded() / 10)) °/s) is not an MPU-9250's bias "
            + "(within ±5 °/s = ±0.09 rad/s); it looks like °/s written as rad/s: divide by 57.3"
    }

    /// The figures that describe one's own robot (not the imperfections).
    static let robotFigures = ["body_mass_kg", "wheel_mass_kg", "com_height_m", "body_inertia_kg_m2", "body_yaw_inertia_kg_m2",
                               "wheel_radius_m", "wheel_base_m", "motor_stall_torque_nm", "motor_no_load_speed_rad_s",
                               "motor_rated_voltage_v", "gear_ratio", "battery_voltage_v"]
    static let quadFigures = ["mass_kg", "inertia_kg_m2", "arm_length_m", "max_thrust_n", "motor_time_constant_s",
                              "torque_coefficient_m", "drag_coefficient", "max_rotor_speed_rad_s"]

    static func rounded(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }

    static func positions(text: String, file: String) -> [String: (line: Int, column: Int)] {
        ConfigParser.writtenPositions(text: text, file: file)
    }
}
