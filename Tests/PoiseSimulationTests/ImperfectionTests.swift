import Foundation
import PoiseDeviceSettings
import PoiseSimulation
import Testing

/// The imperfections of a real robot, each switched on alone, each showing its physical effect.
@Suite struct RobotImperfectionTests {
    static func robot(_ change: (inout SimulatedBalancingRobot) -> Void) -> BalancingRobotPlant {
        var robot = SimulatedBalancingRobot()
        change(&robot)
        return BalancingRobotPlant(parameters: BalancingRobotPlant.Parameters(robot))
    }

    @Test func aDriveBelowTheDeadbandGivesNoTorque() {
        var plant = Self.robot { $0.motorDeadband = 0.1 }
        plant.advance(to: 0.05, left: .duty(0.08), right: .duty(0.08))
        #expect(plant.speed == 0 && plant.pitch == 0)
        plant.advance(to: 0.1, left: .duty(0.12), right: .duty(0.12))
        #expect(plant.speed > 0)
        // Without a deadband the same small drive moves the robot.
        var ideal = BalancingRobotPlant()
        ideal.advance(to: 0.05, left: .duty(0.08), right: .duty(0.08))
        #expect(ideal.speed > 0)
    }

    @Test func staticFrictionHoldsAgainstATorqueBelowIt() {
        // At stall, duty d gives 30 · 0.0045 · 7.4 d / 3.5 = 0.285 d N·m at the wheel.
        var held = Self.robot { $0.staticFriction = 0.02 }
        held.advance(to: 0.1, left: .duty(0.05), right: .duty(0.05))   // 0.014 N·m < 0.02
        #expect(held.speed == 0 && held.pitch == 0)
        var moving = Self.robot { $0.staticFriction = 0.02 }
        moving.advance(to: 0.1, left: .duty(0.1), right: .duty(0.1))   // 0.029 N·m > 0.02
        var ideal = BalancingRobotPlant()
        ideal.advance(to: 0.1, left: .duty(0.1), right: .duty(0.1))
        #expect(moving.speed > 0 && moving.speed < ideal.speed)
    }

    @Test func backlashIsADeadZoneOnReversal() {
        let half = 1.0 * .pi / 180
        var plant = Self.robot { $0.backlash = 2 * half }
        plant.advance(to: 0.05, left: .duty(0.3), right: .duty(0.3))
        #expect(plant.gapLeft == half && plant.gapRight == half)   // driving: meshed at the forward end
        // Reversed, the motor first turns across the play: the wheel feels nothing, as if coasting.
        var coasting = plant
        plant.advance(to: 0.051, left: .duty(-0.05), right: .duty(-0.05))
        coasting.advance(to: 0.051, left: .coast, right: .coast)
        #expect(plant.speed == coasting.speed && plant.pitch == coasting.pitch)
        #expect(plant.gapLeft < half && plant.gapLeft > -half)
        // A robot without play brakes at once.
        var tight = BalancingRobotPlant(), tightCoasting = BalancingRobotPlant()
        tight.advance(to: 0.05, left: .duty(0.3), right: .duty(0.3))
        tightCoasting = tight
        tight.advance(to: 0.051, left: .duty(-0.05), right: .duty(-0.05))
        tightCoasting.advance(to: 0.051, left: .coast, right: .coast)
        #expect(tight.speed < tightCoasting.speed)
        // Across the play the gears mesh at the other end.
        plant.advance(to: 0.1, left: .duty(-0.05), right: .duty(-0.05))
        #expect(plant.gapLeft == -half && plant.gapRight == -half)
    }

    @Test func theBatterySagsWithTheMotorsCurrent() {
        var plant = Self.robot { $0.batteryResistance = 0.3 }
        plant.advance(to: 0.001, left: .duty(1), right: .duty(1))
        let current = plant.batteryCurrent
        // Near stall two motors draw about 2 × 7.4 / 3.5 A less what the sag takes.
        #expect(current > 3 && current < 4.3)
        #expect(abs(plant.batteryTerminalVoltage - (7.4 - 0.3 * current)) < 1e-9)
        #expect(plant.batteryTerminalVoltage < 6.5)
        // Less voltage, less torque: a stiff battery accelerates the robot harder.
        var stiff = BalancingRobotPlant()
        stiff.advance(to: 0.001, left: .duty(1), right: .duty(1))
        #expect(plant.speed < stiff.speed && stiff.batteryTerminalVoltage == 7.4 && stiff.batteryCurrent == 0)
        // Coasting draws nothing: the voltage recovers.
        plant.advance(to: 0.002, left: .coast, right: .coast)
        #expect(plant.batteryTerminalVoltage == 7.4 && plant.batteryCurrent == 0)
    }

    @Test func anIMUOffTheCentreLineFeelsTheTurn() {
        // Spinning in place (opposite drives keep the body upright): an IMU 5 cm along the
        // axle feels the centripetal −ψ̇² r pointing at the centre.
        var offset = Self.robot { $0.imuOffset = SIMD3(0.05, 0, 0) }
        var centred = BalancingRobotPlant()
        offset.advance(to: 0.3, left: .duty(-0.4), right: .duty(0.4))
        centred.advance(to: 0.3, left: .duty(-0.4), right: .duty(0.4))
        #expect(offset.pitch == 0 && offset.headingRate > 3)
        let difference = offset.motion.specificForce - centred.motion.specificForce
        let centripetal = -offset.headingRate * offset.headingRate * 0.05
        #expect(abs(Double(difference.x) - centripetal) < 1e-3, "\(difference) vs \(centripetal)")
        #expect(offset.motion.angularRate == centred.motion.angularRate)
    }
}

@Suite struct QuadrotorImperfectionTests {
    @Test func anIMUOffThePivotFeelsRSquaredOmegaOnASteadySpin() {
        var parameters = QuadrotorStandPlant.Parameters()
        parameters.rotationalDrag = 0
        parameters.imuOffset = SIMD3(0.05, 0, 0)
        var plant = QuadrotorStandPlant(parameters: parameters)
        plant.setRate(SIMD3(0, 0, 10))
        plant.advance(to: 0.01, throttles: .zero)
        let force = plant.motion.specificForce
        #expect(abs(force.x - (-100 * 0.05)) < 1e-4, "\(force)")
        #expect(abs(force.y) < 1e-4 && abs(force.z - 9.80665) < 1e-4)
        // Spinning up at 1 rad/s² adds the tangential ω̇ r along y.
        plant.externalTorque = SIMD3(0, 0, parameters.inertia.z)
        plant.advance(to: 0.02, throttles: .zero)
        #expect(abs(plant.motion.specificForce.y - 0.05) < 1e-4)
    }

    @Test func rotorSpeedFollowsThrottleAndSetsTheVibration() {
        var parameters = QuadrotorStandPlant.Parameters()
        parameters.vibrationRate = 0.2
        parameters.vibrationAcceleration = 5
        var plant = QuadrotorStandPlant(parameters: parameters)
        plant.advance(to: 1, throttles: SIMD4(repeating: 0.5))
        let vibration = plant.vibration
        #expect(abs(vibration.speeds[0] - 0.5 * parameters.maximumRotorSpeed) < 0.01)
        // An imbalance's force grows with speed²: a quarter of full speed's at half throttle.
        #expect(abs(vibration.rate[0] - 0.05) < 1e-5 && abs(vibration.acceleration[0] - 1.25) < 1e-4)
        #expect(vibration.harmonics == 3)
        // The chip sees it change between two of the plant's steps.
        let motion = plant.motion
        #expect(motion.state(at: 1.0001).angularRate != motion.state(at: 1.0003).angularRate)
        // Off by default: the quad's motion is steady.
        var quiet = QuadrotorStandPlant()
        quiet.advance(to: 1, throttles: SIMD4(repeating: 0.5))
        #expect(!quiet.vibration.isActive && quiet.motion.state(at: 1.0001).angularRate == quiet.motion.state(at: 1.0003).angularRate)
    }

    @Test func theActuatorDelayShiftsTheResponse() {
        var wiring = ActuatorWiring([])
        var readback = ChannelReadback()
        for i in 0..<4 {
            wiring.motors[i] = i
            readback.pulseMicroseconds[i] = 1500
        }
        var prompt = QuadrotorWorld(plant: QuadrotorStandPlant())
        var late = QuadrotorWorld(plant: QuadrotorStandPlant(), actuatorDelay: 0.01)
        var promptThrust: [Double] = [0]
        for k in 1...100 {
            let t = Double(k) * 0.0025
            prompt.advance(to: t, outputs: readback, wiring: wiring)
            late.advance(to: t, outputs: readback, wiring: wiring)
            promptThrust.append(prompt.plant.thrust[0])
            // Four ticks (10 ms) behind the prompt quad.
            let expected = k >= 4 ? promptThrust[k - 4] : 0
            #expect(abs(late.plant.thrust[0] - expected) < 1e-9, "tick \(k)")
        }
        #expect(late.plant.thrust[0] > 0.5)
    }
}

/// The simulated chip's own imperfections: its DLPF shapes vibration, and its sample clock is
/// not the board's.
@Suite struct ChipImperfectionTests {
    static let address: UInt8 = 0x68

    /// Gyroscope x, rad/s (±250 °/s range), read once per ms for `seconds`, DLPF setting `dlpf`.
    static func gyroscopeX(_ motion: HeldMotion, dlpf: UInt8, seconds: Double = 1) throws -> [Double] {
        var chip = SimulatedMPU9250(motion: motion, errors: .ideal)
        try chip.write(address: address, register: 0x1A, value: dlpf)   // CONFIG
        try chip.write(address: address, register: 0x19, value: 0)      // 1 kHz
        var samples: [Double] = []
        var bytes = [UInt8](repeating: 0, count: 2)
        for k in 1...Int(seconds * 1000) {
            chip.advance(to: Double(k) / 1000)
            try bytes.withUnsafeMutableBytes { buffer in try chip.writeThenRead(address: address, register: 0x43, into: buffer) }
            let raw = Int16(bitPattern: UInt16(bytes[0]) << 8 | UInt16(bytes[1]))
            samples.append(Double(raw) * 250 / 32768 * .pi / 180)
        }
        return samples
    }

    /// Amplitude of the component at `hertz` in samples taken at 1 kHz.
    static func amplitude(_ samples: [Double], hertz: Double) -> Double {
        var re = 0.0, im = 0.0
        for (k, x) in samples.enumerated() {
            let angle = 2 * .pi * hertz * Double(k) / 1000
            re += x * cos(angle)
            im -= x * sin(angle)
        }
        return 2 * (re * re + im * im).squareRoot() / Double(samples.count)
    }

    @Test func vibrationPeaksAtTheRotorFrequencyAndALowDLPFAttenuatesIt() throws {
        var motion = HeldMotion()
        motion.vibration.speeds = SIMD4(2 * .pi * 100, 0, 0, 0)   // one rotor at 100 Hz
        motion.vibration.rate = SIMD4(1, 0, 0, 0)
        motion.vibration.harmonics = 1
        let wide = try Self.gyroscopeX(motion, dlpf: 1)     // 184 Hz
        let narrow = try Self.gyroscopeX(motion, dlpf: 6)   // 5 Hz
        let peak = Self.amplitude(wide, hertz: 100)
        #expect(peak > 0.8 && peak < 1.0, "\(peak)")   // a one-pole at 184 Hz passes ≈ 0.89 of it
        #expect(Self.amplitude(wide, hertz: 137) < 0.05 * peak)
        let attenuated = Self.amplitude(narrow, hertz: 100)
        #expect(attenuated < 0.1 * peak, "\(attenuated) vs \(peak)")
    }

    /// Over `ticks` 1 ms ticks of a 1 kHz chip whose clock is off by `error`: the ticks that
    /// found no new sample, and the conversions no tick read.
    static func repeatedAndSkipped(error: Double, ticks: Int) throws -> (repeated: Int, skipped: Int) {
        var chip = SimulatedMPU9250(motion: HeldMotion(), errors: .ideal)
        chip.clockError = error
        try chip.write(address: address, register: 0x19, value: 0)
        try chip.write(address: address, register: 0x1A, value: 1)
        try chip.write(address: address, register: 0x38, value: 0x01)   // data-ready status on
        var status = [UInt8](repeating: 0, count: 1)
        func tick(_ k: Int) throws -> Bool {
            chip.advance(to: Double(k) / 1000)
            try status.withUnsafeMutableBytes { buffer in try chip.writeThenRead(address: address, register: 0x3A, into: buffer) }
            return status[0] & 0x01 != 0
        }
        for k in 1...100 { _ = try tick(k) }
        let before = chip.conversions
        var fresh = 0
        for k in 101...(100 + ticks) {
            if try tick(k) { fresh += 1 }
        }
        return (ticks - fresh, chip.conversions - before - fresh)
    }

    @Test func anOffSampleClockRepeatsOrSkipsSamplesInProportion() throws {
        let fast = try Self.repeatedAndSkipped(error: 0.005, ticks: 10_000)
        #expect(fast.repeated == 0 && abs(fast.skipped - 50) <= 1, "\(fast)")
        let slow = try Self.repeatedAndSkipped(error: -0.005, ticks: 10_000)
        #expect(slow.skipped == 0 && abs(slow.repeated - 50) <= 1, "\(slow)")
        let exact = try Self.repeatedAndSkipped(error: 0, ticks: 10_000)
        #expect(exact.repeated == 0 && exact.skipped == 0)
    }
}
