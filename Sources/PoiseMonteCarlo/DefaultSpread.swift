import Foundation
import PoiseConfig
import PoiseRun

/// The spreads `poise simulate --trials N` draws from without `--spread`, one per plant
/// (`--print-spread` prints the one a configuration gets). Each is ordinary spread-file text,
/// read by ``SpreadParser`` like a user's, so its keys are checked against the schema.
/// Every trial also gets its own `simulation.seed`, so the chip's noise differs per trial.
///
/// The spread is drawn around the configured robot: battery, actuator delay, driver
/// deadband, friction and backlash are relative to the configuration's own figures, each
/// with a documented width (``Widths``) and a physical floor; a figure the configuration
/// leaves at 0 (unknown: a plant key's "off") draws from the range realistic for small hobby
/// robots instead, never from 0. The bounds are written into the text with four significant
/// digits, so `--print-spread` shows the very numbers the trials draw from.
public enum DefaultSpread {
    /// Widths and floors of the spread, as fractions of the configured figure.
    public enum Widths {
        /// A lithium pack from nearly flat (3.3 V a cell) to full (4.2 V), around its nominal
        /// 3.7 V a cell: `battery_voltage_v` × 3.3/3.7 … × 4.2/3.7.
        public static let batteryLow = 3.3 / 3.7
        public static let batteryHigh = 4.2 / 3.7
        /// A configured figure (delay, deadband, friction, backlash, battery resistance) is
        /// drawn from half to one and a half times itself.
        public static let relativeLow = 0.5
        public static let relativeHigh = 1.5
        /// No output path acts sooner: the tick itself (up to 1 ms at 1 kHz) and the motor's
        /// electrical time constant (0.1–1 ms), s.
        public static let delayFloor = 0.001
        /// An actuator delay left at 0, s: a fast H-bridge's 1 ms to a servo-pulse ESC's 10 ms
        /// (the quadrotor's ESCs from 2 ms: a 400 Hz pulse and the ESC's own filtering).
        public static let robotDelay = (0.001, 0.01)
        public static let quadDelay = (0.002, 0.01)
        /// Static friction left at 0, as a fraction of the gear motor's stall torque at the wheel
        /// (ratio × `motor_stall_torque_nm`): the default robot's 0.005–0.02 N·m of 0.243 N·m.
        public static let frictionLow = 0.005 / 0.243
        public static let frictionHigh = 0.02 / 0.243
    }

    public static let header = """
        # Keys are configuration keys; each value says how a trial draws it:
        #   {relative: f}                ± f of the configuration's value, uniform
        #   {uniform: [low, high]}       uniform between the bounds
        #   {normal: {mean: m, sd: s}}   normal, cut to the key's allowed range
        # Each trial also draws its own simulation.seed (the chip's noise).
        # Drawn around this configuration's figures (docs/simulation.md, Monte-Carlo): a figure
        # written in the file varies from half to 1.5 times itself; one left at 0 draws from the
        # range realistic for small hobby robots.

        """

    /// The built-in spread of a balancing robot configured as `configuration`.
    public static func balancingRobot(_ configuration: PoiseConfiguration) -> String {
        let values = configuration.values
        func n(_ key: String) -> Double { values.number("simulation.balancing_robot." + key) }
        let volts = n("battery_voltage_v")
        let battery = "{uniform: [\(figure(volts * Widths.batteryLow)), \(figure(volts * Widths.batteryHigh))]}"
        let wheelStall = n("motor_stall_torque_nm") * n("gear_ratio")
        let lines: [(String, String, String)] = [
            ("body_mass_kg", "{relative: 0.3}", "± 30 %"),
            ("com_height_m", "{relative: 0.3}", "± 30 %"),
            ("motor_stall_torque_nm", "{relative: 0.3}", "motor strength ± 30 %"),
            configured("motor_deadband", n("motor_deadband"), range: 0...0.5, unset: (0, 0.15),
                       unsetNote: "0–15 % of full drive", floor: 0),
            configured("backlash_deg", n("backlash_deg"), range: 0...20, unset: (0, 2), unsetNote: "0–2° of free play", floor: 0),
            ("battery_voltage_v", battery, "a lithium pack from nearly flat to full (3.3–4.2 V a cell around \(figure(volts)) V)"),
            ("imu_offset_m", "{magnitude: {uniform: [0, 0.1]}}", "0–10 cm off, any direction"),
            configured("static_friction_nm", n("static_friction_nm"), range: 0...10,
                       unset: (wheelStall * Widths.frictionLow, wheelStall * Widths.frictionHigh),
                       unsetNote: "a geared motor's stiction, 2–8 % of its stall torque at the wheel", floor: 0),
            configured("battery_resistance_ohm", n("battery_resistance_ohm"), range: 0...10, unset: (0.1, 0.3),
                       unsetNote: "a small pack and its wiring: it sags under current", floor: 0),
            configured("actuator_delay_s", n("actuator_delay_s"), range: 0...0.5, unset: Widths.robotDelay,
                       unsetNote: "not configured: a fast H-bridge's 1 ms to a servo-pulse ESC's 10 ms", floor: Widths.delayFloor),
        ]
        var text = "# The built-in spread of the balancing robot (docs/simulation.md, Monte-Carlo).\n" + header
        for (key, value, note) in lines { text += "simulation.balancing_robot.\(key): \(value)  # \(note)\n" }
        text += """
            simulation.sample_clock_error: {uniform: [-0.01, 0.01]}  # the chip's clock off the board's (datasheet ±1 %)
            simulation.initial_tilt_deg: {uniform: [-12, 12]}  # where it starts (arming wants within safety.arm_tilt_deg)

            """
        return text
    }

    /// The built-in spread of a quadrotor stand configured as `configuration`.
    public static func quadrotor(_ configuration: PoiseConfiguration) -> String {
        let delay = configured("actuator_delay_s", configuration.values.number("simulation.quadrotor.actuator_delay_s"),
                               range: 0...0.5, unset: Widths.quadDelay,
                               unsetNote: "not configured: ESCs acting on the command 2–10 ms later", floor: Widths.delayFloor)
        return "# The built-in spread of the quadrotor on its stand (docs/simulation.md, Monte-Carlo).\n" + header + """
            simulation.quadrotor.mass_kg: {relative: 0.3}  # ± 30 %
            simulation.quadrotor.max_thrust_n: {relative: 0.3}  # motor strength ± 30 %
            simulation.quadrotor.imu_offset_m: {magnitude: {uniform: [0, 0.1]}}  # 0–10 cm off the pivot, any direction
            simulation.gust_torque: {relative: 0.3}  # the push about body x, ± 30 %
            simulation.gust_time: {uniform: [4, 6]}  # when it comes (s)
            simulation.quadrotor.\(delay.0): \(delay.1)  # \(delay.2)
            simulation.quadrotor.vibration_accel_m_s2: {uniform: [2, 10]}  # rotor and propeller imbalance, at the rotation frequency and its harmonics
            simulation.quadrotor.vibration_gyro_rad_s: {uniform: [0.05, 0.3]}
            simulation.sample_clock_error: {uniform: [-0.01, 0.01]}  # the chip's clock off the board's (datasheet ±1 %)

            """
    }

    /// A line drawing `key` around its configured value `value`: from half to 1.5 times it
    /// (within `range`, at least `floor`), or from `unset` when the configuration leaves it at 0.
    static func configured(_ key: String, _ value: Double, range: ClosedRange<Double>, unset: (Double, Double),
                           unsetNote: String, floor: Double) -> (String, String, String) {
        guard value > 0 else {
            // Within the key's range: implausible figures (a gearbox output's torque as the
            // motor's) would otherwise scale the friction past it, and the spread be refused.
            let low = min(max(unset.0, range.lowerBound), range.upperBound), high = min(max(unset.1, low), range.upperBound)
            return (key, "{uniform: [\(figure(low)), \(figure(high))]}", unsetNote)
        }
        let low = min(max(value * Widths.relativeLow, floor, range.lowerBound), range.upperBound)
        let high = min(max(value * Widths.relativeHigh, low), range.upperBound)
        return (key, "{uniform: [\(figure(low)), \(figure(high))]}", "configured \(figure(value)): half to 1.5 times it"
            + (low > value * Widths.relativeLow ? " (at least \(figure(floor)))" : ""))
    }

    /// Four significant digits, the shortest text that reads back (`6.6`, `0.0045`, `12`).
    static func figure(_ x: Double) -> String {
        guard x != 0, x.isFinite else { return "0" }
        let digits = 4 - Int(Foundation.floor(log10(abs(x)))) - 1
        let scale = pow(10, Double(digits))
        let rounded = digits >= 0 ? (x * scale).rounded() / scale : (x / pow(10, Double(-digits))).rounded() * pow(10, Double(-digits))
        return Formatting.number(rounded)
    }

    /// The name and text of the built-in spread for a configuration's plant.
    public static func text(for configuration: PoiseConfiguration) -> (name: String, text: String) {
        switch SimulatedRig.plant(configuration) {
        case .quadrotor: ("built-in quadrotor spread", quadrotor(configuration))
        default: ("built-in balancing-robot spread", balancingRobot(configuration))
        }
    }
}
