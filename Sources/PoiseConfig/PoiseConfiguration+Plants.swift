import PoiseDeviceSettings

// `simulation.balancing_robot` and `simulation.quadrotor`: the user's own robot, bound
// straight to the simulated plants' descriptions (PoiseDeviceSettings), whose defaults are the
// plants the simulation has always run; and `simulation.sample_clock_error`. The
// imperfections are 0 (off) by default; docs/simulation.md gives the realistic values the
// Monte-Carlo spread draws them from and how to measure every parameter on a real robot.

extension PoiseConfiguration.Simulation {
    static let plantBindings: [ConfigBinding<Self>] = {
        let d = Self()
        let world = "the simulated world"
        let robot: [ConfigBinding<Self>] = [
            .number("simulation.balancing_robot.body_mass_kg", \.balancingRobot.bodyMass, range: 0.05...50, unit: "kg", defaults: d,
                    doc: "Mass of the body without the wheels (weigh the robot, subtract the wheels)."),
            .number("simulation.balancing_robot.wheel_mass_kg", \.balancingRobot.wheelMass, range: 0.001...10, unit: "kg", defaults: d,
                    doc: "Mass of one wheel with its tyre and hub."),
            .number("simulation.balancing_robot.com_height_m", \.balancingRobot.centreOfMassHeight, range: 0.005...2, unit: "m", defaults: d,
                    doc: "Height of the body's centre of mass above the axle (balance the body on a ruler's edge)."),
            .number("simulation.balancing_robot.body_inertia_kg_m2", \.balancingRobot.bodyInertia, range: 1e-6...10, unit: "kg·m²", defaults: d,
                    doc: "Body moment of inertia about its centre of mass, pitch axis (a pendulum test: docs/simulation.md)."),
            .number("simulation.balancing_robot.body_yaw_inertia_kg_m2", \.balancingRobot.bodyYawInertia, range: 1e-6...10, unit: "kg·m²", defaults: d,
                    doc: "Body moment of inertia about the vertical (a bifilar pendulum)."),
            .number("simulation.balancing_robot.wheel_radius_m", \.balancingRobot.wheelRadius, range: 0.005...0.5, unit: "m", defaults: d,
                    doc: "Wheel radius (half the tyre's diameter)."),
            .number("simulation.balancing_robot.wheel_base_m", \.balancingRobot.wheelBase, range: 0.02...2, unit: "m", defaults: d,
                    doc: "Distance between the two wheels' contact points."),
            .number("simulation.balancing_robot.motor_stall_torque_nm", \.balancingRobot.motorStallTorque, range: 1e-5...10, unit: "N·m", defaults: d,
                    doc: "The bare motor's stall torque at motor_rated_voltage_v, before the gearbox (a gear motor's figure divided by its ratio)."),
            .number("simulation.balancing_robot.motor_no_load_speed_rad_s", \.balancingRobot.motorNoLoadSpeed, range: 10...50_000, unit: "rad/s", defaults: d,
                    doc: "The bare motor's no-load speed at motor_rated_voltage_v, before the gearbox (a gear motor's figure times its ratio; rpm × π/30)."),
            .number("simulation.balancing_robot.motor_rated_voltage_v", \.balancingRobot.motorRatedVoltage, range: 0.5...60, unit: "V", defaults: d,
                    doc: "The voltage the stall torque and no-load speed are given at. Torque constant = rated voltage / no-load speed; resistance = rated voltage / stall current."),
            .number("simulation.balancing_robot.gear_ratio", \.balancingRobot.gearRatio, range: 1...1000, defaults: d,
                    doc: "Gearbox ratio: motor turns per wheel turn."),
            .number("simulation.balancing_robot.viscous_friction_nm_s_rad", \.balancingRobot.viscousFriction, range: 0...1, unit: "N·m·s/rad", zeroTurnsOff: true, defaults: d,
                    doc: "Viscous friction of gearbox and bearings at the wheel (a coast-down test); 0 for none."),
            .number("simulation.balancing_robot.imu_height_m", \.balancingRobot.imuHeight, range: -1...2, unit: "m", defaults: d,
                    doc: "Height of the IMU above the axle, on the body's centre line."),
            .number("simulation.balancing_robot.battery_voltage_v", \.balancingRobot.batteryVoltage, range: 0.5...60, unit: "V", defaults: d,
                    doc: "Battery (motor supply) voltage with no load: full drive puts this across the motor."),
            .number("simulation.balancing_robot.battery_resistance_ohm", \.balancingRobot.batteryResistance, range: 0...10, unit: "Ω", zeroTurnsOff: true, defaults: d,
                    doc: "Battery internal resistance plus wiring: the supply sags by the motors' current times this (realistic: 0.1–0.3 for a small 2S pack); 0 never sags."),
            .number("simulation.balancing_robot.motor_deadband", \.balancingRobot.motorDeadband, range: 0...0.5, unit: "fraction", zeroTurnsOff: true, defaults: d,
                    doc: "Drive, as a fraction of full, below which the motor driver does not switch on (realistic: 0.02–0.15); 0 for none."),
            .number("simulation.balancing_robot.static_friction_nm", \.balancingRobot.staticFriction, range: 0...10, unit: "N·m", zeroTurnsOff: true, defaults: d,
                    doc: "Static (Coulomb) friction of motor and gearbox at the wheel: torque a stopped wheel holds against the motor (realistic: 0.005–0.02); 0 for none."),
            .number("simulation.balancing_robot.backlash_deg", \.balancingRobot.backlash, range: 0...20, unit: "°", .degreesToRadians, zeroTurnsOff: true, defaults: d,
                    doc: "Gear backlash: the wheel's free play against the motor, at the wheel (realistic: 0.5–2); 0 for none."),
            .vector3("simulation.balancing_robot.imu_offset_m", \.balancingRobot.imuOffset, unit: "m", defaults: d,
                     doc: "Where the IMU is off its place imu_height_m up the centre line, body frame (x along the axle, y forward, z up): the accelerometer then feels the body's tangential and centripetal acceleration there (realistic: up to 0.1); [0, 0, 0] for none."),
            .number("simulation.balancing_robot.actuator_delay_s", \.balancingRobot.actuatorDelay, range: 0...0.5, unit: "s", zeroTurnsOff: true, defaults: d,
                    doc: "Time from the loop's output to the motor terminals (driver, PWM period; realistic: 0.001–0.01); 0 for none."),
        ]
        let quad: [ConfigBinding<Self>] = [
            .number("simulation.quadrotor.mass_kg", \.quadrotor.mass, range: 0.01...50, unit: "kg", defaults: d,
                    doc: "All-up mass. The stand turns the quad about its centre of mass, so the mass does not enter its rotation; four motors at max_thrust_n must lift it."),
            .vector3("simulation.quadrotor.inertia_kg_m2", \.quadrotor.inertia, unit: "kg·m²", defaults: d,
                     doc: "Principal moments of inertia about body x, y, z (a bifilar pendulum about each axis: docs/simulation.md)."),
            .number("simulation.quadrotor.arm_length_m", \.quadrotor.armLength, range: 0.01...2, unit: "m", defaults: d,
                    doc: "Centre to each motor's axis (half the motor-to-motor diagonal)."),
            .number("simulation.quadrotor.max_thrust_n", \.quadrotor.maximumThrust, range: 0.01...500, unit: "N", defaults: d,
                    doc: "Thrust of one motor at full throttle (a thrust stand, or the propeller's data: grams × 0.00981); thrust grows with throttle²."),
            .number("simulation.quadrotor.motor_time_constant_s", \.quadrotor.motorTimeConstant, range: 0...2, unit: "s", zeroTurnsOff: true, defaults: d,
                    doc: "Time constant of a motor and propeller from throttle to thrust; 0 follows at once."),
            .number("simulation.quadrotor.torque_coefficient_m", \.quadrotor.torqueCoefficient, range: 0...1, unit: "m", defaults: d,
                    doc: "Propeller reaction torque per newton of thrust."),
            .number("simulation.quadrotor.drag_coefficient", \.quadrotor.rotationalDrag, range: 0...1, unit: "N·m·s/rad", zeroTurnsOff: true, defaults: d,
                    doc: "Rotational drag (air and the stand's bearings): torque per rad/s of body rate; 0 for none."),
            .number("simulation.quadrotor.max_rotor_speed_rad_s", \.quadrotor.maximumRotorSpeed, range: 10...20_000, unit: "rad/s", defaults: d,
                    doc: "Rotor speed at full throttle (a tachometer, or motor kV × battery voltage × π/30 less ~20 % under load); rotor speed grows with throttle: the vibration's frequency."),
            .vector3("simulation.quadrotor.imu_offset_m", \.quadrotor.imuOffset, unit: "m", defaults: d,
                     doc: "Where the IMU is off the stand's pivot (the centre of mass), body frame: the accelerometer then feels tangential and centripetal acceleration (realistic: up to 0.03); [0, 0, 0] for none."),
            .number("simulation.quadrotor.actuator_delay_s", \.quadrotor.actuatorDelay, range: 0...0.5, unit: "s", zeroTurnsOff: true, defaults: d,
                    doc: "Time from the loop's output to the ESCs acting on it (realistic: 0.002–0.01); 0 for none."),
            .number("simulation.quadrotor.vibration_accel_m_s2", \.quadrotor.vibrationAcceleration, range: 0...100, unit: "m/s²", zeroTurnsOff: true, defaults: d,
                    doc: "Accelerometer vibration of one rotor at full speed, at its rotation frequency (harmonic n at 1/n of it; it grows with rotor speed²), before the chip's DLPF (realistic: 2–10); 0 for none."),
            .number("simulation.quadrotor.vibration_gyro_rad_s", \.quadrotor.vibrationRate, range: 0...10, unit: "rad/s", zeroTurnsOff: true, defaults: d,
                    doc: "Gyroscope vibration of one rotor at full speed, as vibration_accel_m_s2 (realistic: 0.05–0.3); 0 for none."),
            .integer("simulation.quadrotor.vibration_harmonics", \.quadrotor.vibrationHarmonics, range: 1...8, defaults: d,
                     doc: "Harmonics of each rotor's rotation frequency in its vibration (1: the fundamental only)."),
        ]
        let clock: ConfigBinding<Self> = .number(
            "simulation.sample_clock_error", \.sampleClockError, range: -0.01...0.01, unit: "fraction", zeroTurnsOff: true, defaults: d,
            doc: "How far the simulated chip's sample clock is off the board's (datasheet: ±0.01): at a fixed tick some samples come twice or not at all; 0 for none.")
        return (robot + quad + [clock]).map { $0.outsideTheTick(world) }
    }()
}
