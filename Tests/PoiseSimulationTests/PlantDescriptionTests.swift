import PoiseDeviceSettings
import PoiseSimulation
import Testing

/// The plants a default description gives are the plants the simulation always ran, to the
/// bit, so every simulate and replay output stays as it was.
@Suite struct PlantDescriptionTests {
    @Test func theDefaultRobotIsTheRobotThePlantAlwaysWas() {
        let p = BalancingRobotPlant.Parameters(SimulatedBalancingRobot())
        #expect(p.bodyMass == 0.9 && p.centreOfMassHeight == 0.09 && p.bodyInertia == 0.004 && p.bodyYawInertia == 0.003)
        #expect(p.wheelMass == 0.03 && p.wheelRadius == 0.034 && p.trackWidth == 0.16)
        #expect(p.motorResistance == 3.5 && p.motorConstant == 0.0045 && p.gearRatio == 30)
        #expect(p.wheelFriction == 0.0005 && p.sensorHeight == 0.06 && p.floorTilt == 1.4 && p.maximumStep == 0.001)
        #expect(p.batteryVoltage == 7.4 && p.batteryResistance == 0)
        // Every imperfection off.
        #expect(p.motorDeadband == 0 && p.staticFriction == 0 && p.backlash == 0 && p.imuOffset == .zero)
        #expect(BalancingRobotWorld(robot: SimulatedBalancingRobot()).delayLine.delay == 0)
    }

    @Test func theDefaultQuadIsTheQuadThePlantAlwaysWas() {
        let p = QuadrotorStandPlant.Parameters(SimulatedQuadrotor())
        #expect(p.inertia == SIMD3(2.5e-3, 2.5e-3, 4.5e-3) && p.maximumThrust == 4 && p.motorTimeConstant == 0.03)
        #expect(p.torqueCoefficient == 0.016 && p.rotationalDrag == 0.002 && p.maximumStep == 0.001)
        #expect(p.geometry == .quadX(arm: 0.088))
        #expect(p.imuOffset == .zero && p.vibrationAcceleration == 0 && p.vibrationRate == 0)
        #expect(QuadrotorStandPlant.Parameters(SimulatedQuadrotor(), plus: true).geometry == .quadPlus(arm: 0.088))
    }
}
