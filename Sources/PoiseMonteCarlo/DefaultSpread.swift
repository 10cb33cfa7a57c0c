import PoiseConfig
import PoiseRun

/// The spreads `poise simulate --trials N` draws from without `--spread`, one per plant
/// (`--print-spread` prints the one a configuration gets). Each is ordinary spread-file text,
/// read by ``SpreadParser`` like a user's, so its keys are checked against the schema.
/// Every trial also gets its own `simulation.seed`, so the chip's noise differs per trial.
public enum DefaultSpread {
    public static let balancingRobot = """
        # The built-in spread of the balancing robot (docs/simulation.md, Monte-Carlo).
        # Keys are configuration keys; each value says how a trial draws it:
        #   {relative: f}                ± f of the configuration's value, uniform
        #   {uniform: [low, high]}       uniform between the bounds
        #   {normal: {mean: m, sd: s}}   normal, cut to the key's allowed range
        # Each trial also draws its own simulation.seed (the chip's noise).
        simulation.balancing_robot.body_mass_kg: {relative: 0.3}           # ± 30 %
        simulation.balancing_robot.com_height_m: {relative: 0.3}           # ± 30 %
        simulation.balancing_robot.motor_stall_torque_nm: {relative: 0.3}  # motor strength ± 30 %
        simulation.balancing_robot.motor_deadband: {uniform: [0, 0.15]}    # 0–15 % of full drive
        simulation.balancing_robot.backlash_deg: {uniform: [0, 2]}         # 0–2° of free play
        simulation.balancing_robot.battery_voltage_v: {uniform: [6.6, 8.4]} # a 2S LiPo from flat to full
        simulation.balancing_robot.imu_offset_m: {magnitude: {uniform: [0, 0.1]}}  # 0–10 cm off, any direction
        simulation.balancing_robot.static_friction_nm: {uniform: [0.005, 0.02]}  # a geared motor's stiction
        simulation.balancing_robot.battery_resistance_ohm: {uniform: [0.1, 0.3]}  # a small 2S pack and its wiring: it sags under current
        simulation.balancing_robot.actuator_delay_s: {uniform: [0.001, 0.01]}   # driver and PWM period
        simulation.sample_clock_error: {uniform: [-0.01, 0.01]}           # the chip's clock off the board's (datasheet ±1 %)
        simulation.initial_tilt_deg: {uniform: [-12, 12]}                  # where it starts (arming wants within safety.arm_tilt_deg)

        """

    public static let quadrotor = """
        # The built-in spread of the quadrotor on its stand (docs/simulation.md, Monte-Carlo).
        # Keys are configuration keys; each value says how a trial draws it:
        #   {relative: f}                ± f of the configuration's value, uniform
        #   {uniform: [low, high]}       uniform between the bounds
        #   {normal: {mean: m, sd: s}}   normal, cut to the key's allowed range
        # Each trial also draws its own simulation.seed (the chip's noise).
        simulation.quadrotor.mass_kg: {relative: 0.3}                      # ± 30 %
        simulation.quadrotor.max_thrust_n: {relative: 0.3}                 # motor strength ± 30 %
        simulation.quadrotor.imu_offset_m: {magnitude: {uniform: [0, 0.1]}}  # 0–10 cm off the pivot, any direction
        simulation.gust_torque: {relative: 0.3}                            # the push about body x, ± 30 %
        simulation.gust_time: {uniform: [4, 6]}                            # when it comes (s)
        simulation.quadrotor.actuator_delay_s: {uniform: [0.002, 0.01]}    # ESCs acting on the command
        simulation.quadrotor.vibration_accel_m_s2: {uniform: [2, 10]}      # rotor and propeller imbalance, at the rotation frequency and its harmonics
        simulation.quadrotor.vibration_gyro_rad_s: {uniform: [0.05, 0.3]}
        simulation.sample_clock_error: {uniform: [-0.01, 0.01]}           # the chip's clock off the board's (datasheet ±1 %)

        """

    /// The name and text of the built-in spread for a configuration's plant.
    public static func text(for configuration: PoiseConfiguration) -> (name: String, text: String) {
        switch SimulatedRig.plant(configuration) {
        case .quadrotor: ("built-in quadrotor spread", quadrotor)
        default: ("built-in balancing-robot spread", balancingRobot)
        }
    }
}
