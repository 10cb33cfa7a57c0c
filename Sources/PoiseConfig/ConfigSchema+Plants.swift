extension ConfigSchema {
    // `simulation.balancing_robot` and `simulation.quadrotor`: what a number's range alone
    // cannot say (vectors have no range; a quad that cannot lift itself). Bound in
    // PoiseConfiguration+Plants.swift.

    /// The farthest an IMU can sit from the axle or pivot of these small robots, m.
    static let maximumIMUOffset = 1.0
    /// Moments of inertia the quadrotor may have, kg·m².
    static let quadrotorInertia = 1e-6...10.0

    static let plantRules: [ConfigRule] = [
        ConfigRule(paths: ["simulation.balancing_robot.imu_offset_m"]) { file, _ in
            imuOffsetProblem(file.vector3("simulation.balancing_robot.imu_offset_m"))
        },
        ConfigRule(paths: ["simulation.quadrotor.imu_offset_m"]) { file, _ in
            imuOffsetProblem(file.vector3("simulation.quadrotor.imu_offset_m"))
        },
        ConfigRule(paths: ["simulation.quadrotor.inertia_kg_m2"]) { file, _ in
            let inertia = file.vector3("simulation.quadrotor.inertia_kg_m2")
            guard let bad = (0..<3).first(where: { !quadrotorInertia.contains(inertia[$0]) }) else { return nil }
            return "\(CalibrationLimits.axis(bad)) = \(inertia[bad]) kg·m² is not a moment of inertia of a small quadrotor "
                + "(allowed: \(ConfigFormat.number(quadrotorInertia.lowerBound))…\(ConfigFormat.number(quadrotorInertia.upperBound)) kg·m²)"
        },
        ConfigRule(paths: ["simulation.quadrotor.max_thrust_n", "simulation.quadrotor.mass_kg"]) { file, _ in
            let lift = 4 * file.number("simulation.quadrotor.max_thrust_n")
            let weight = file.number("simulation.quadrotor.mass_kg") * 9.80665
            guard lift <= weight else { return nil }
            return "four motors at max_thrust_n give \(ConfigFormat.number(lift)) N, which cannot lift mass_kg's weight "
                + "(\(ConfigFormat.number(weight)) N): max_thrust_n is one motor's thrust at full throttle"
        },
    ]

    static func imuOffsetProblem(_ offset: SIMD3<Double>) -> String? {
        guard let bad = (0..<3).first(where: { !(abs(offset[$0]) <= maximumIMUOffset) }) else { return nil }
        return "\(CalibrationLimits.axis(bad)) = \(offset[bad]) m is farther than \(ConfigFormat.number(maximumIMUOffset)) m: "
            + "the IMU sits on the robot (allowed: each component within ±\(ConfigFormat.number(maximumIMUOffset)) m)"
    }
}
