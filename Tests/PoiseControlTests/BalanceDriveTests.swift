import PoiseControl
import PoiseMath
import PropertyBased
import Testing

/// The balance controller's drive setpoint: the commanded speed's profile, the lean into
/// acceleration, the turn.
@Suite struct BalanceDriveTests {
    static let upright = ControlInput(attitude: EulerAngles(pitch: 0, roll: 0, yaw: 0), rotationRate: .zero, dt: 0.001)

    /// Any speed step becomes a ramp no steeper than the limit, with the acceleration itself
    /// ramped, that arrives without overshoot.
    @Test func speedStepsBecomeJerkLimitedRampsThatArrive() async {
        await propertyCheck(count: 60, input: Gen.float(in: -2...2), Gen.float(in: 0.1...2)) { target, limit in
            var controller = BalanceController(settings: BalanceSettings(maxAcceleration: limit))
            controller.engage()
            var previousAcceleration: Float = 0
            let jerk = limit / BalanceController.jerkTime
            for _ in 0..<Int((abs(target) / limit + 3 * BalanceController.jerkTime + 1) / 0.001) {
                _ = controller.update(Self.upright, setpoint: DriveSetpoint(speed: target), wheels: nil)
                #expect(abs(controller.commandedAcceleration) <= limit * 1.0001)
                #expect(abs(controller.commandedAcceleration - previousAcceleration) <= jerk * 0.001 * 1.0001)
                #expect(abs(controller.commandedSpeed) <= abs(target) * 1.01 + 1e-3, "overshoot \(controller.commandedSpeed) for \(target)")
                previousAcceleration = controller.commandedAcceleration
            }
            #expect(abs(controller.commandedSpeed - target) < 0.01 * max(1, abs(target)), "\(controller.commandedSpeed) for \(target)")
        }
    }

    @Test func accelerationLeansForwardAndATurnDrivesTheRightWheelFaster() {
        var controller = BalanceController(settings: BalanceSettings())
        controller.engage()
        var drive: (left: Float, right: Float) = (0, 0)
        for _ in 0..<300 { drive = controller.update(Self.upright, setpoint: DriveSetpoint(speed: 0.5, turnRate: 0.5), wheels: nil) }
        // Accelerating forward: the setpoint's lean is forward (negative pitch).
        #expect(controller.commandedAcceleration > 0.4 && controller.leanSetpoint < 0)
        #expect(drive.right > drive.left)
    }

    @Test func encoderCountsBecomeTheSpeedEstimate() {
        // 1000 counts per turn, r = 0.05 m: 100 counts per 0.01 s on both wheels is 2π·0.05·10 m/s.
        var controller = BalanceController(settings: BalanceSettings(driveFeedbackCutoffHz: 0, encoderCountsPerRevolution: 1000,
                                                                     wheelRadius: 0.05))
        controller.engage()
        var input = Self.upright
        input.dt = 0.01
        for tick in 0..<5 {
            let count = Int64(100 * tick)
            _ = controller.update(input, setpoint: DriveSetpoint(), wheels: WheelCounts(left: count, right: count))
        }
        #expect(controller.encodersActive)
        #expect(abs(controller.speedEstimate - 2 * .pi * 0.05 * 10) < 1e-3, "\(controller.speedEstimate)")
        // Without counts handed over, the drive is the estimate again.
        _ = controller.update(input, setpoint: DriveSetpoint(), wheels: nil)
        #expect(!controller.encodersActive)
    }
}
