import PoiseDeviceSettings
import PoiseMath
import PoiseSimulation
import Testing

/// Plants that break down say so (PlantDivergence.swift), and a stiff gearbox is stepped finer.
@Suite struct PlantDivergenceTests {
    /// The balancing robot with a gearbox of `ratio` (the default motor otherwise).
    func robot(ratio: Double) -> BalancingRobotPlant.Parameters {
        var robot = SimulatedBalancingRobot()
        robot.gearRatio = ratio
        return BalancingRobotPlant.Parameters(robot)
    }

    @Test func theDefaultRobotKeepsItsMillisecondStep() {
        // Its motors damp the wheels at about 40 /s: far from RK4's limit at 1 ms, so the step
        // (and every result made with it) is the one it always was.
        let plant = BalancingRobotPlant()
        #expect(plant.stiffness > 10 && plant.stiffness < 100, "\(plant.stiffness)")
        #expect(plant.integrationStep == plant.parameters.maximumStep)
    }

    @Test func aThousandToOneGearboxIsSteppedFinerAndNeverGainsEnergy() throws {
        // Shorted motors only take energy out; at 1000:1 the wheels' damping decays at about
        // 40 000 /s, which fixed 1 ms RK4 steps turn into an explosion.
        let plant0 = BalancingRobotPlant(parameters: robot(ratio: 1000), pitch: -0.05)
        let step = try #require(plant0.integrationStep)
        #expect(step < plant0.parameters.maximumStep / 10)
        #expect(step * plant0.stiffness <= BalancingRobotPlant.stableStepTimesRate * (1 + 1e-12))
        var plant = plant0
        var energy = plant.mechanicalEnergy, grew = 0.0
        for i in 1...2000 {
            plant.advance(to: Double(i) * 0.001, left: .brake, right: .brake)
            grew = max(grew, plant.mechanicalEnergy - energy)
            energy = plant.mechanicalEnergy
        }
        #expect(plant.divergence == nil)
        #expect(grew <= 1e-9, "energy grew by \(grew) J in one tick")
        #expect(plant.pitch.isFinite && plant.speed.isFinite)
    }

    @Test func aNonFiniteStateEndsTheIntegrationWithItsTimeAndCause() throws {
        // No mass anywhere: the equations divide by zero on the first step.
        var parameters = BalancingRobotPlant.Parameters()
        parameters.bodyMass = 0
        parameters.wheelMass = 0
        parameters.bodyInertia = 0
        var plant = BalancingRobotPlant(parameters: parameters, pitch: 0.1)
        plant.advance(to: 0.001, left: .duty(0.5), right: .duty(0.5))
        let divergence = try #require(plant.divergence)
        #expect(divergence.time == 0.001)
        #expect(divergence.cause.hasPrefix("non-finite "))
        #expect(divergence.cause.contains("lean"))
        // It stays at its last finite state, at rest, while time moves on.
        plant.advance(to: 0.5, left: .duty(1), right: .duty(1))
        #expect(plant.time == 0.5)
        #expect(plant.divergence == divergence)
        #expect(plant.pitch == 0.1 && plant.pitchRate == 0)
        let q = plant.attitude
        #expect(q.w.isFinite && q.x.isFinite && q.y.isFinite && q.z.isFinite)
    }

    @Test func aGearMotorsOutputShaftFiguresEnteredAsTheBareMotorsAreTooStiffToIntegrate() throws {
        // A 1000:1 gear motor's 0.8 N·m and 10 rad/s at its output shaft, not divided by the ratio.
        var robot = SimulatedBalancingRobot()
        robot.gearRatio = 1000
        robot.motorStallTorque = 0.8
        robot.motorNoLoadSpeed = 10
        var plant = BalancingRobotPlant(parameters: BalancingRobotPlant.Parameters(robot))
        #expect(plant.integrationStep == nil)
        plant.advance(to: 0.002, left: .coast, right: .coast)
        let divergence = try #require(plant.divergence)
        #expect(divergence.time == 0)
        #expect(divergence.cause.hasPrefix("too stiff to integrate"))
        #expect(divergence.description.hasPrefix("diverged at 0.000 s: too stiff"))
    }

    @Test func aQuadWithoutInertiaDiverges() throws {
        var parameters = QuadrotorStandPlant.Parameters()
        parameters.inertia = .zero
        parameters.rotationalDrag = 0   // (with drag, zero inertia is infinitely stiff: reported as such)
        var plant = QuadrotorStandPlant(parameters: parameters)
        plant.advance(to: 0.01, throttles: SIMD4(0.9, 0.1, 0.9, 0.1))
        let divergence = try #require(plant.divergence)
        #expect(divergence.time > 0 && divergence.time <= 0.01)
        #expect(divergence.cause.contains("body rate"), "\(divergence.cause)")
        #expect(plant.rate == .zero)
        let q = plant.attitude
        #expect(q.w.isFinite && q.x.isFinite && q.y.isFinite && q.z.isFinite)
    }

    @Test func theDefaultQuadKeepsItsStepAndAQuickMotorIsSteppedFiner() throws {
        let quad = QuadrotorStandPlant()
        #expect(quad.integrationStep == quad.parameters.maximumStep, "\(quad.stiffness) /s")
        // A 10 µs motor lag: RK4 at 1 ms would make the thrust explode; stepped at 20 µs it
        // settles on the command without overshooting it.
        var parameters = QuadrotorStandPlant.Parameters()
        parameters.motorTimeConstant = 1e-5
        var plant = QuadrotorStandPlant(parameters: parameters)
        let step = try #require(plant.integrationStep)
        #expect(step <= 2e-5 * (1 + 1e-12))
        var worst = 0.0
        for i in 1...100 {
            plant.advance(to: Double(i) * 0.0025, throttles: SIMD4(repeating: 0.5))
            worst = max(worst, plant.thrust.max())
        }
        let command = parameters.maximumThrust * 0.25
        #expect(plant.divergence == nil)
        #expect(abs(plant.thrust.x - command) < 1e-9 * command && worst <= command * (1 + 1e-9))
        // A 0.1 µs lag would need steps of 0.2 µs: reported, not integrated wrongly.
        parameters.motorTimeConstant = 1e-7
        var instant = QuadrotorStandPlant(parameters: parameters)
        #expect(instant.integrationStep == nil)
        instant.advance(to: 0.0025, throttles: SIMD4(repeating: 0.5))
        #expect(instant.divergence?.cause.hasPrefix("too stiff to integrate") == true)
    }

    @Test func aWatchKeepsTheFirstDivergenceForTheRunThatBoundIt() {
        let watch = SimulationWatch()
        #expect(SimulationWatch.current == nil)
        SimulationWatch.$current.withValue(watch) {
            SimulationWatch.current?.report(PlantDivergence(time: 1.5, cause: "non-finite lean"))
            SimulationWatch.current?.report(PlantDivergence(time: 2, cause: "later"))
        }
        #expect(watch.divergence == PlantDivergence(time: 1.5, cause: "non-finite lean"))
        #expect(SimulationWatch.current == nil)
    }
}
