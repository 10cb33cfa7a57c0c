import PoiseDeviceSettings
import PoiseMath

/// The balancing robot as the simulated board's world: its motors see the H-bridge pins
/// (or a reversible ESC's pulse) the loop drives. Held at its start pose until the loop
/// arms, as a hand holds a robot until it balances by itself.
public struct BalancingRobotWorld: SimulatedWorld {
    public var plant: BalancingRobotPlant
    public var bridge = HBridgeModel()
    public var reversible = ReversibleESCModel()
    public var held = true

    public init(plant: BalancingRobotPlant) { self.plant = plant }

    /// The robot a description gives, held at `pitch` (rad), its motors driven from its battery.
    public init(robot: SimulatedBalancingRobot, pitch: Double = 0) {
        plant = BalancingRobotPlant(parameters: BalancingRobotPlant.Parameters(robot), pitch: pitch)
        bridge = HBridgeModel(supplyVoltage: robot.batteryVoltage)
    }

    public mutating func advance(to time: Double, outputs: ChannelReadback, wiring: ActuatorWiring) {
        guard !held else {
            plant.hold(until: time)
            return
        }
        let standby = wiring.standby >= 0 && !outputs.high[wiring.standby]
        let left = input(signed: wiring.leftSigned, duty: wiring.leftDuty, forward: wiring.leftForward,
                         reverse: wiring.leftReverse, standby: standby, outputs)
        let right = input(signed: wiring.rightSigned, duty: wiring.rightDuty, forward: wiring.rightForward,
                          reverse: wiring.rightReverse, standby: standby, outputs)
        plant.advance(to: time, left: left, right: right)
    }

    func input(signed: Int, duty: Int, forward: Int, reverse: Int, standby: Bool,
               _ outputs: ChannelReadback) -> BalancingRobotPlant.MotorInput {
        if signed >= 0 {
            return .voltage(reversible.drive(pulseMicroseconds: outputs.pulseMicroseconds[signed]) * bridge.supplyVoltage)
        }
        guard duty >= 0 else { return .coast }
        let in1 = forward >= 0 && outputs.high[forward]
        let in2 = reverse >= 0 && outputs.high[reverse]
        switch bridge.output(in1: in1, in2: in2, duty: outputs.duty[duty], standby: standby) {
        case .drive(let v): return .voltage(v)
        case .brake: return .brake
        case .coast: return .coast
        }
    }

    public var motion: HeldMotion { plant.motion }
    public var truth: Quaternion { plant.attitude }
    public mutating func release() { held = false }
}

/// The quadrotor on its stand as the simulated board's world: four ESCs read the pulses
/// the loop drives; a gust torque about body x hits once at a configured time.
public struct QuadrotorWorld: SimulatedWorld {
    public var plant: QuadrotorStandPlant
    public var esc = ESCModel()
    public var gustTorque: Double
    public var gustStart: Double
    public var gustDuration: Double
    /// A torque from outside besides the gust, body frame, N·m: a hand on the stand (tests
    /// right a flipped quad with it).
    public var handTorque = SIMD3<Double>.zero

    public init(plant: QuadrotorStandPlant, gustTorque: Double = 0, gustStart: Double = 0, gustDuration: Double = 0) {
        self.plant = plant
        self.gustTorque = gustTorque
        self.gustStart = gustStart
        self.gustDuration = gustDuration
    }

    public mutating func advance(to time: Double, outputs: ChannelReadback, wiring: ActuatorWiring) {
        var throttles = SIMD4<Double>.zero
        for i in 0..<4 where wiring.motors[i] >= 0 {
            throttles[i] = esc.throttle(pulseMicroseconds: outputs.pulseMicroseconds[wiring.motors[i]])
        }
        let gusting = gustTorque != 0 && time >= gustStart && time < gustStart + gustDuration
        plant.externalTorque = (gusting ? SIMD3(gustTorque, 0, 0) : .zero) + handTorque
        plant.advance(to: time, throttles: throttles)
    }

    public var motion: HeldMotion { plant.motion }
    public var truth: Quaternion { plant.attitude }
    public mutating func release() {}
}
