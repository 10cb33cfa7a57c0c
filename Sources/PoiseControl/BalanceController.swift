/// Settings of a two-wheeled balancing robot whose wheel axle is the body x axis and which
/// drives along body +y. Pitch (about x) is positive when the top leans backward.
@frozen
public struct BalanceSettings: Sendable, Equatable {
    /// Pitch → wheel drive (−1…1). Error in rad; the D term uses the gyroscope's x rate.
    public var pitch: PIDSettings
    /// Pitch the robot balances at, rad (trims a centre of mass off the axle).
    public var pitchSetpoint: Float
    /// Lean added per unit of low-passed mean wheel drive, rad: a robot without wheel
    /// encoders uses its own drive as a speed estimate and leans against it to stop rolling
    /// away (positive leans back while driving forward). 0 turns it off.
    public var driveFeedback: Float
    /// Corner frequency of the drive low-pass that feeds `driveFeedback`, Hz.
    public var driveFeedbackCutoffHz: Float
    /// Yaw rate (rad/s, body z) → differential drive; the setpoint is 0 (hold heading rate).
    public var yawRate: PIDSettings

    @inlinable
    public init(pitch: PIDSettings = PIDSettings(proportionalGain: 6, integralGain: 20, derivativeGain: 0.35,
                                                 derivativeCutoffHz: 40, outputLimit: 1, integralLimit: 0.5),
                pitchSetpoint: Float = 0, driveFeedback: Float = Float(6 * Double.pi / 180), driveFeedbackCutoffHz: Float = 0.5,
                yawRate: PIDSettings = PIDSettings(proportionalGain: 0.2, integralGain: 0, derivativeGain: 0,
                                                   derivativeCutoffHz: 20, outputLimit: 0.3, integralLimit: 0.3)) {
        self.pitch = pitch
        self.pitchSetpoint = pitchSetpoint
        self.driveFeedback = driveFeedback
        self.driveFeedbackCutoffHz = driveFeedbackCutoffHz
        self.yawRate = yawRate
    }
}

/// Pitch (and the gyroscope's pitch rate) → left and right wheel drive, for H-bridges
/// (TB6612FNG, L298N) driven by a PWM magnitude and two direction pins per motor.
public struct BalanceController: Sendable {
    public var settings: BalanceSettings {
        didSet {
            pitchLoop.settings = settings.pitch
            yawLoop.settings = settings.yawRate
        }
    }
    public private(set) var pitchLoop: PIDController
    public private(set) var yawLoop: PIDController
    /// Low-passed mean wheel drive (the speed estimate of `driveFeedback`).
    public private(set) var meanDrive: Float = 0

    public init(settings: BalanceSettings) {
        self.settings = settings
        pitchLoop = PIDController(settings: settings.pitch)
        yawLoop = PIDController(settings: settings.yawRate)
    }

    /// Starts closing the loop from rest (called on arming).
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func engage() {
        pitchLoop.enable(holding: 0)
        yawLoop.enable(holding: 0)
        meanDrive = 0
    }

    /// Wheel drives, −1…1, positive forward.
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func update(_ input: ControlInput) -> (left: Float, right: Float) {
        let dt = input.dt
        let cutoff = settings.driveFeedbackCutoffHz
        let setpoint = settings.pitchSetpoint + settings.driveFeedback * meanDrive
        let drive = pitchLoop.update(setpoint: setpoint, measurement: input.attitude.pitch,
                                     measuredRate: input.rotationRate.x, dt: dt)
        if cutoff > 0 && dt > 0 && drive.isFinite {
            meanDrive += dt / (dt + 1 / (2 * .pi * cutoff)) * (drive - meanDrive)
        }
        // Positive pitch leans back: the error (setpoint − pitch) is then negative and the
        // wheels drive backward under the body, as they must. A positive turn speeds up the
        // right wheel: counter-clockwise seen from above, positive yaw rate.
        let turn = yawLoop.update(setpoint: 0, measurement: input.rotationRate.z,
                                  measuredRate: 0, dt: dt)
        let left = max(-1, min(1, drive - turn))
        let right = max(-1, min(1, drive + turn))
        return (left, right)
    }
}

extension SignalFrame {
    /// Writes a wheel drive into the signed, magnitude and direction signals of one side.
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func setWheel(left drive: Float) {
        self[.leftWheel] = drive
        self[.leftWheelDuty] = abs(drive)
        self[.leftWheelForward] = drive > 0 ? 1 : 0
        self[.leftWheelReverse] = drive < 0 ? 1 : 0
    }

    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func setWheel(right drive: Float) {
        self[.rightWheel] = drive
        self[.rightWheelDuty] = abs(drive)
        self[.rightWheelForward] = drive > 0 ? 1 : 0
        self[.rightWheelReverse] = drive < 0 ? 1 : 0
    }
}
