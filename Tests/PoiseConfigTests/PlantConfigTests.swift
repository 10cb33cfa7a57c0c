import Testing
import PoiseConfig
import PoiseDeviceSettings

/// `simulation.balancing_robot`, `simulation.quadrotor` and `simulation.sample_clock_error`:
/// the defaults are the plants' own, every key lands in its field, and mistakes are reported
/// at their line and column.
@Suite struct PlantConfigTests {
    static func problems(_ text: String) -> [String] {
        do {
            _ = try PoiseConfiguration.parse(text: text, file: "p.yaml")
            return []
        } catch {
            return error.errors.map { "\($0.line ?? 0):\($0.column ?? 0): \($0.description)" }
        }
    }

    @Test func defaultsAreThePlantsOwnWithEveryImperfectionOff() {
        let sim = PoiseConfiguration.default.simulation
        #expect(sim.balancingRobot == SimulatedBalancingRobot())
        #expect(sim.quadrotor == SimulatedQuadrotor())
        #expect(sim.sampleClockError == 0)
        let robot = sim.balancingRobot
        #expect(robot.motorDeadband == 0 && robot.staticFriction == 0 && robot.backlash == 0)
        #expect(robot.imuOffset == .zero && robot.actuatorDelay == 0 && robot.batteryResistance == 0)
        let quad = sim.quadrotor
        #expect(quad.imuOffset == .zero && quad.actuatorDelay == 0 && quad.vibrationAcceleration == 0 && quad.vibrationRate == 0)
        // The datasheet figures give the motor the plant always had, to the bit.
        #expect(robot.motorConstant == 0.0045 && robot.motorResistance == 3.5)
    }

    @Test func everyKeyLandsInItsField() throws {
        let text = """
            simulation:
              sample_clock_error: -0.004
              balancing_robot:
                body_mass_kg: 1.2
                wheel_mass_kg: 0.05
                com_height_m: 0.12
                body_inertia_kg_m2: 0.006
                wheel_radius_m: 0.04
                wheel_base_m: 0.18
                motor_stall_torque_nm: 0.01
                motor_no_load_speed_rad_s: 1000
                motor_rated_voltage_v: 6
                gear_ratio: 50
                battery_voltage_v: 8.4
                battery_resistance_ohm: 0.2
                motor_deadband: 0.1
                static_friction_nm: 0.01
                backlash_deg: 1.5
                imu_offset_m: [0.01, 0.02, 0.05]
                actuator_delay_s: 0.004
              quadrotor:
                mass_kg: 0.6
                inertia_kg_m2: [0.003, 0.0035, 0.006]
                arm_length_m: 0.1
                max_thrust_n: 5
                motor_time_constant_s: 0.02
                torque_coefficient_m: 0.012
                drag_coefficient: 0.001
                max_rotor_speed_rad_s: 2500
                imu_offset_m: [0, 0.02, 0]
                actuator_delay_s: 0.003
                vibration_accel_m_s2: 4
                vibration_gyro_rad_s: 0.1
                vibration_harmonics: 2

            """
        let sim = try PoiseConfiguration.parse(text: text, file: "p.yaml").simulation
        let r = sim.balancingRobot
        #expect(sim.sampleClockError == -0.004)
        #expect([r.bodyMass, r.wheelMass, r.centreOfMassHeight, r.bodyInertia, r.wheelRadius, r.wheelBase]
                == [1.2, 0.05, 0.12, 0.006, 0.04, 0.18])
        #expect([r.motorStallTorque, r.motorNoLoadSpeed, r.motorRatedVoltage, r.gearRatio, r.batteryVoltage, r.batteryResistance]
                == [0.01, 1000, 6, 50, 8.4, 0.2])
        #expect(r.motorDeadband == 0.1 && r.staticFriction == 0.01 && r.actuatorDelay == 0.004)
        #expect(abs(r.backlash - 1.5 * .pi / 180) < 1e-15)
        #expect(r.imuOffset == SIMD3(0.01, 0.02, 0.05))
        let q = sim.quadrotor
        #expect([q.mass, q.armLength, q.maximumThrust, q.motorTimeConstant, q.torqueCoefficient, q.rotationalDrag, q.maximumRotorSpeed]
                == [0.6, 0.1, 5, 0.02, 0.012, 0.001, 2500])
        #expect(q.inertia == SIMD3(0.003, 0.0035, 0.006) && q.imuOffset == SIMD3(0, 0.02, 0))
        #expect(q.actuatorDelay == 0.003 && q.vibrationAcceleration == 4 && q.vibrationRate == 0.1 && q.vibrationHarmonics == 2)
    }

    @Test func anOutOfRangeParameterIsReportedAtItsValueWithItsRange() {
        let problems = Self.problems("simulation:\n  balancing_robot:\n    gear_ratio: 0.5\n")
        #expect(problems == ["3:17: p.yaml:3: simulation.balancing_robot.gear_ratio: `0.5` is out of range (allowed: 1…1000)"], "\(problems)")
        let clock = Self.problems("simulation:\n  sample_clock_error: 0.05\n")
        #expect(clock.count == 1 && clock[0].hasPrefix("2:23: p.yaml:2: simulation.sample_clock_error: `0.05` is out of range (allowed: -0.01…0.01 fraction)"), "\(clock)")
    }

    @Test func vectorsAreCheckedComponentByComponentAtTheirLine() {
        let offset = Self.problems("simulation:\n  quadrotor:\n    imu_offset_m: [0, 2.5, 0]\n")
        #expect(offset.count == 1 && offset[0].contains("p.yaml:3: simulation.quadrotor.imu_offset_m: y = 2.5 m is farther than 1 m"), "\(offset)")
        let inertia = Self.problems("simulation:\n  quadrotor:\n    inertia_kg_m2: [0.003, 0.003, 0]\n")
        #expect(inertia.count == 1 && inertia[0].contains("p.yaml:3: simulation.quadrotor.inertia_kg_m2: z = 0.0 kg·m² is not a moment of inertia"), "\(inertia)")
    }

    @Test func aQuadThatCannotLiftItselfIsRefused() {
        let problems = Self.problems("simulation:\n  quadrotor:\n    mass_kg: 2\n    max_thrust_n: 4\n")
        #expect(problems.count == 1 && problems[0].contains("p.yaml:4: simulation.quadrotor.max_thrust_n: four motors at max_thrust_n give 16 N"), "\(problems)")
    }
}
