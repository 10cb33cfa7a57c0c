import PoiseMath
import PoiseSimulation
import Testing

@Suite struct BalancingRobotPlantTests {
    @Test func energyIsConservedWhileCoasting() {
        // No friction, motors open: the pendulum falls, the wheels roll back, energy stays.
        var parameters = BalancingRobotPlant.Parameters()
        parameters.wheelFriction = 0
        var plant = BalancingRobotPlant(parameters: parameters, pitch: -0.01)
        let start = plant.mechanicalEnergy
        var worst = 0.0
        var t = 0.0
        while !plant.fallen && t < 60 {
            t += 0.001
            plant.advance(to: t, left: .coast, right: .coast)
            if !plant.fallen { worst = max(worst, abs(plant.mechanicalEnergy - start) / start) }
        }
        #expect(worst < 1e-6, "relative energy drift \(worst)")
        #expect(t > 0.2)   // it did move a while before landing
    }

    @Test func energyIsConservedOverAMinuteHanging() {
        // The same equations with the mass below the axle: a pendulum that swings for a minute.
        var parameters = BalancingRobotPlant.Parameters()
        parameters.wheelFriction = 0
        parameters.centreOfMassHeight = -0.09
        var plant = BalancingRobotPlant(parameters: parameters, pitch: 0.5)
        let start = plant.mechanicalEnergy
        var worst = 0.0, swings = 0, previous = plant.pitch
        for i in 1...60_000 {
            plant.advance(to: Double(i) * 0.001, left: .coast, right: .coast)
            worst = max(worst, abs(plant.mechanicalEnergy - start) / abs(start))
            if (plant.pitch > 0) != (previous > 0) { swings += 1 }
            previous = plant.pitch
        }
        #expect(!plant.fallen && swings > 50)
        #expect(worst < 1e-6, "relative energy drift \(worst) over 60 s")
    }

    @Test func fallsTheWayItLeansAndLandsOnTheFloor() {
        var plant = BalancingRobotPlant(pitch: 0.05)   // leaning back
        for i in 1...3000 { plant.advance(to: Double(i) * 0.001, left: .coast, right: .coast) }
        #expect(plant.fallen && plant.pitch > 1.3)
        // The body lies still on the floor.
        #expect(abs(plant.pitchRate) < 1e-9)
    }

    @Test func forwardVoltageDrivesForwardAndTiltsTheBodyBack() {
        var plant = BalancingRobotPlant()
        plant.advance(to: 0.05, left: .voltage(3), right: .voltage(3))
        #expect(plant.speed > 0 && plant.position > 0)
        #expect(plant.pitch > 0)   // reaction torque tilts the top backward
        // At heading 0 forward is north (+y): the accelerometer sees +y specific force.
        #expect(plant.motion.specificForce.y > 0)
    }

    @Test func oppositeVoltagesTurnCounterClockwiseWhenTheRightWheelLeads() {
        var plant = BalancingRobotPlant()
        plant.advance(to: 0.05, left: .voltage(-2), right: .voltage(2))
        #expect(plant.headingRate > 0)
        #expect(plant.motion.angularRate.z > 0)
    }

    @Test func atRestTheSensorSeesGravityOnly() {
        let plant = BalancingRobotPlant()
        let f = plant.motion.specificForce
        #expect(abs(f.x) < 1e-6 && abs(f.y) < 1e-6 && abs(f.z - Gravity.standard) < 1e-5)
    }

    @Test func brakingDissipatesEnergy() {
        var plant = BalancingRobotPlant()
        plant.advance(to: 0.2, left: .voltage(4), right: .voltage(4))
        let moving = plant.speed
        plant.advance(to: 0.4, left: .brake, right: .brake)
        #expect(abs(plant.speed) < abs(moving))
    }
}

@Suite struct QuadrotorStandPlantTests {
    @Test func torqueFreeSpinConservesEnergyAndMomentum() {
        var parameters = QuadrotorStandPlant.Parameters()
        parameters.rotationalDrag = 0
        parameters.inertia = SIMD3(2.5e-3, 3.1e-3, 4.5e-3)
        var plant = QuadrotorStandPlant(parameters: parameters)
        plant.setRate(SIMD3(1.5, -0.7, 2.0))
        let energy = plant.rotationalEnergy, momentum = plant.angularMomentum
        for i in 1...60_000 { plant.advance(to: Double(i) * 0.001, throttles: .zero) }
        #expect(abs(plant.rotationalEnergy - energy) / energy < 1e-6)
        #expect(abs(plant.angularMomentum - momentum) / momentum < 1e-6)
    }

    @Test func equalThrottlesGiveNoTorqueButSpinUpWithLag() {
        var plant = QuadrotorStandPlant()
        plant.advance(to: 0.03, throttles: SIMD4(repeating: 0.5))
        // One time constant: ≈ 63 % of the 1 N command.
        #expect(abs(plant.thrust[0] - 0.632) < 0.01)
        plant.advance(to: 1, throttles: SIMD4(repeating: 0.5))
        #expect((plant.rate * plant.rate).sum().squareRoot() < 1e-9)
    }

    @Test func frontMotorsRaiseTheNoseAndLeftMotorsLowerTheRightSide() {
        // X: motors 1 and 3 are at the front.
        var nose = QuadrotorStandPlant()
        nose.advance(to: 0.2, throttles: SIMD4(0.6, 0.4, 0.6, 0.4))
        #expect(nose.rate.x > 0 && EulerAngles(nose.attitude).pitch > 0)
        // X: motors 2 and 3 are on the left: positive roll (right side down, about y).
        var roll = QuadrotorStandPlant()
        roll.advance(to: 0.2, throttles: SIMD4(0.4, 0.6, 0.6, 0.4))
        #expect(roll.rate.y > 0 && EulerAngles(roll.attitude).roll > 0)
        // Clockwise props 3 and 4 faster: the frame turns counter-clockwise (positive yaw).
        var yaw = QuadrotorStandPlant()
        yaw.advance(to: 0.2, throttles: SIMD4(0.4, 0.4, 0.6, 0.6))
        #expect(yaw.rate.z > 0)
    }

    @Test func aGustTurnsItAboutBodyX() {
        var plant = QuadrotorStandPlant()
        plant.externalTorque = SIMD3(0.01, 0, 0)
        plant.advance(to: 0.1, throttles: .zero)
        #expect(plant.rate.x > 0 && abs(plant.rate.y) < 1e-9)
    }
}

@Suite struct ActuatorModelTests {
    @Test func hBridgeTruthTable() {
        let bridge = HBridgeModel(supplyVoltage: 8)
        #expect(bridge.output(in1: true, in2: false, duty: 0.5, standby: false) == .drive(4))
        #expect(bridge.output(in1: false, in2: true, duty: 0.25, standby: false) == .drive(-2))
        #expect(bridge.output(in1: true, in2: true, duty: 1, standby: false) == .brake)
        #expect(bridge.output(in1: false, in2: false, duty: 1, standby: false) == .coast)
        #expect(bridge.output(in1: true, in2: false, duty: 1, standby: true) == .coast)
        #expect(bridge.output(in1: true, in2: false, duty: 0, standby: false) == .brake)
    }

    @Test func escPulses() {
        let esc = ESCModel()
        #expect(esc.throttle(pulseMicroseconds: 0) == 0)
        #expect(esc.throttle(pulseMicroseconds: 1000) == 0)
        #expect(esc.throttle(pulseMicroseconds: 1040) == 0)
        #expect(abs(esc.throttle(pulseMicroseconds: 1500) - 0.5) < 1e-12)
        #expect(esc.throttle(pulseMicroseconds: 2500) == 1)
        let reversible = ReversibleESCModel()
        #expect(reversible.drive(pulseMicroseconds: 1500) == 0)
        #expect(reversible.drive(pulseMicroseconds: 1750) == 0.5)
        #expect(reversible.drive(pulseMicroseconds: 900) == -1)
    }
}
