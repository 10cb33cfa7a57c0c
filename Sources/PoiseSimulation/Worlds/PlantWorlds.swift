import PoiseDeviceSettings
import PoiseMath

/// The balancing robot as the simulated board's world: its motors see the H-bridge pins
/// (or a reversible ESC's pulse) the loop drives, switching the plant's battery, after the
/// actuator delay. Held at its start pose until the loop arms, as a hand holds a robot until
/// it balances by itself.
public struct BalancingRobotWorld: SimulatedWorld {
    public typealias Inputs = (left: BalancingRobotPlant.MotorInput, right: BalancingRobotPlant.MotorInput)
    public var plant: BalancingRobotPlant
    /// The bridges' logic; they switch the plant's battery (a unit supply here: the drive
    /// comes out as a fraction of it, and the plant's battery, sag and deadband act on it).
    public var bridge = HBridgeModel(supplyVoltage: 1)
    public var reversible = ReversibleESCModel()
    public var held = true
    /// Times a wheel's drive changed direction (forward to reverse or back; brake and coast
    /// keep the last direction), both wheels together, since release: ``driveReversals``.
    public private(set) var reversals = 0
    var lastDirection: (left: Int8, right: Int8) = (0, 0)
    /// What the motor terminals get, `actuatorDelay` after the loop wrote it.
    public var delayLine: ActuatorDelayLine<Inputs>

    public init(plant: BalancingRobotPlant, actuatorDelay: Double = 0) {
        self.plant = plant
        delayLine = ActuatorDelayLine(delay: actuatorDelay, initial: (.coast, .coast))
    }

    /// The robot a description gives, held at `pitch` (rad).
    public init(robot: SimulatedBalancingRobot, pitch: Double = 0) {
        self.init(plant: BalancingRobotPlant(parameters: BalancingRobotPlant.Parameters(robot), pitch: pitch),
                  actuatorDelay: robot.actuatorDelay)
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
        countReversals(left, right)
        guard delayLine.delay > 0 else {
            plant.advance(to: time, left: left, right: right)
            return
        }
        // The pins have shown these inputs since the last tick's write (the plant's time).
        delayLine.send((left, right), at: plant.time)
        var acting = delayLine.current
        while let change = delayLine.next(before: time) {
            plant.advance(to: change.time, left: acting.left, right: acting.right)
            acting = change.input
        }
        plant.advance(to: time, left: acting.left, right: acting.right)
    }

    /// A direction that differs from the wheel's last one is a reversal.
    mutating func countReversals(_ left: BalancingRobotPlant.MotorInput, _ right: BalancingRobotPlant.MotorInput) {
        func direction(_ input: BalancingRobotPlant.MotorInput) -> Int8 {
            switch input {
            case .voltage(let v), .duty(let v): v > 0 ? 1 : v < 0 ? -1 : 0
            case .brake, .coast: 0
            }
        }
        let l = direction(left), r = direction(right)
        if l != 0 { if lastDirection.left != 0 && l != lastDirection.left { reversals += 1 }; lastDirection.left = l }
        if r != 0 { if lastDirection.right != 0 && r != lastDirection.right { reversals += 1 }; lastDirection.right = r }
    }

    func input(signed: Int, duty: Int, forward: Int, reverse: Int, standby: Bool,
               _ outputs: ChannelReadback) -> BalancingRobotPlant.MotorInput {
        if signed >= 0 {
            return .duty(reversible.drive(pulseMicroseconds: outputs.pulseMicroseconds[signed]))
        }
        guard duty >= 0 else { return .coast }
        let in1 = forward >= 0 && outputs.high[forward]
        let in2 = reverse >= 0 && outputs.high[reverse]
        switch bridge.output(in1: in1, in2: in2, duty: outputs.duty[duty], standby: standby) {
        case .drive(let v): return .duty(v)
        case .brake: return .brake
        case .coast: return .coast
        }
    }

    public var motion: HeldMotion { plant.motion }
    public var truth: Quaternion { plant.attitude }
    public mutating func release() { held = false }
}

/// The quadrotor on its stand as the simulated board's world: four ESCs read the pulses
/// the loop drives, after the actuator delay; a gust torque about body x hits once at a
/// configured time.
public struct QuadrotorWorld: SimulatedWorld {
    public var plant: QuadrotorStandPlant
    public var esc = ESCModel()
    public var gustTorque: Double
    public var gustStart: Double
    public var gustDuration: Double
    /// A torque from outside besides the gust, body frame, N·m: a hand on the stand (tests
    /// right a flipped quad with it).
    public var handTorque = SIMD3<Double>.zero
    /// The ESCs' throttles, `actuatorDelay` after the loop wrote them.
    public var delayLine: ActuatorDelayLine<SIMD4<Double>>

    public init(plant: QuadrotorStandPlant, gustTorque: Double = 0, gustStart: Double = 0, gustDuration: Double = 0,
                actuatorDelay: Double = 0) {
        self.plant = plant
        self.gustTorque = gustTorque
        self.gustStart = gustStart
        self.gustDuration = gustDuration
        delayLine = ActuatorDelayLine(delay: actuatorDelay, initial: .zero)
    }

    public mutating func advance(to time: Double, outputs: ChannelReadback, wiring: ActuatorWiring) {
        var throttles = SIMD4<Double>.zero
        for i in 0..<4 where wiring.motors[i] >= 0 {
            throttles[i] = esc.throttle(pulseMicroseconds: outputs.pulseMicroseconds[wiring.motors[i]])
        }
        let gusting = gustTorque != 0 && time >= gustStart && time < gustStart + gustDuration
        plant.externalTorque = (gusting ? SIMD3(gustTorque, 0, 0) : .zero) + handTorque
        guard delayLine.delay > 0 else {
            plant.advance(to: time, throttles: throttles)
            return
        }
        delayLine.send(throttles, at: plant.time)
        var acting = delayLine.current
        while let change = delayLine.next(before: time) {
            plant.advance(to: change.time, throttles: acting)
            acting = change.input
        }
        plant.advance(to: time, throttles: acting)
    }

    public var motion: HeldMotion { plant.motion }
    public var truth: Quaternion { plant.attitude }
    public mutating func release() {}
}
