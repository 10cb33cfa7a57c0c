import PoiseMath

/// Settings of a two-wheeled balancing robot whose wheel axle is the body x axis and which
/// drives along body +y. Pitch (about x) is positive when the top leans backward.
///
/// Driving: the speed setpoint is slew-limited to `maxAcceleration`; the robot leans into
/// the commanded acceleration (`accelerationLean`, feedforward) and leans against the speed
/// error (`driveFeedback`); the drive the commanded speed needs is fed forward. The speed
/// comes from the wheel encoders when `encoderCountsPerRevolution` > 0, else from the
/// low-passed drive itself (`fullDriveSpeed` turns drive into m/s).
@frozen
public struct BalanceSettings: Sendable, Equatable {
    /// Pitch → wheel drive (−1…1). Error in rad; the D term uses the gyroscope's x rate.
    public var pitch: PIDSettings
    /// Pitch the robot balances at, rad (trims a centre of mass off the axle).
    public var pitchSetpoint: Float
    /// Lean added per unit of speed error, rad, the speed measured in units of
    /// `fullDriveSpeed` (so, without encoders, per unit of low-passed mean wheel drive
    /// beyond what the speed setpoint needs): leans back while going too fast forward,
    /// which stops the robot rolling away. 0 turns it off.
    public var driveFeedback: Float
    /// Corner frequency of the speed estimate's low-pass (drive or encoders), Hz.
    public var driveFeedbackCutoffHz: Float
    /// Yaw rate (rad/s, body z) → differential drive; the setpoint is the drive setpoint's turn rate.
    public var yawRate: PIDSettings
    /// Forward speed at full drive with no load, m/s (the motors' no-load speed at the
    /// battery voltage through the gearbox, times the wheel radius): turns drive into speed.
    public var fullDriveSpeed: Float
    /// Lean forward per m/s² of commanded acceleration, rad·s²/m (feedforward). A constant
    /// acceleration needs (M·L + rolling mass × r)/(M·g·L) (8°·s²/m for the simulated
    /// robot); about half of it tracks a drive script's short ramps best, as the body's own
    /// return to upright at the ramp's end adds speed.
    public var accelerationLean: Float
    /// Largest commanded acceleration, m/s²: speed setpoint steps become ramps (with the
    /// acceleration itself ramped over ``BalanceController/jerkTime``). 0: none.
    public var maxAcceleration: Float
    /// Differential drive per rad/s of turn-rate setpoint (feedforward; about
    /// wheel base / (2 × fullDriveSpeed)).
    public var turnFeedforward: Float
    /// Encoder counts (quadrature edges) per wheel revolution; 0: no encoders, the drive
    /// is the speed estimate.
    public var encoderCountsPerRevolution: Float
    /// Wheel radius, m (encoder counts → distance).
    public var wheelRadius: Float
    /// Drive added to each wheel in the direction it is driven (a fraction of full), so the
    /// motor driver's deadband and the gearbox's static friction are crossed at once instead
    /// of after the pitch error has grown to cross them (an H-bridge user's "min duty"). It
    /// fades in linearly over the first ``BalanceController/deadbandFadeDrive`` of drive, so
    /// a wheel near zero drive is not switched between ±this by sensor noise. 0: none.
    public var deadbandCompensation: Float

    @inlinable
    public init(pitch: PIDSettings = PIDSettings(proportionalGain: 6, integralGain: 20, derivativeGain: 0.25,
                                                 derivativeCutoffHz: 40, outputLimit: 1, integralLimit: 0.5),
                pitchSetpoint: Float = 0, driveFeedback: Float = Float(10 * Double.pi / 180), driveFeedbackCutoffHz: Float = 2,
                yawRate: PIDSettings = PIDSettings(proportionalGain: 0.2, integralGain: 0, derivativeGain: 0,
                                                   derivativeCutoffHz: 20, outputLimit: 0.3, integralLimit: 0.3),
                fullDriveSpeed: Float = 1.86, accelerationLean: Float = Float(4 * Double.pi / 180),
                maxAcceleration: Float = 0.5, turnFeedforward: Float = 0.043,
                encoderCountsPerRevolution: Float = 0, wheelRadius: Float = 0.034,
                deadbandCompensation: Float = 0.06) {
        self.pitch = pitch
        self.pitchSetpoint = pitchSetpoint
        self.driveFeedback = driveFeedback
        self.driveFeedbackCutoffHz = driveFeedbackCutoffHz
        self.yawRate = yawRate
        self.fullDriveSpeed = fullDriveSpeed
        self.accelerationLean = accelerationLean
        self.maxAcceleration = maxAcceleration
        self.turnFeedforward = turnFeedforward
        self.encoderCountsPerRevolution = encoderCountsPerRevolution
        self.wheelRadius = wheelRadius
        self.deadbandCompensation = deadbandCompensation
    }

    /// The speed comes from wheel encoders.
    @inlinable
    public var usesEncoders: Bool { encoderCountsPerRevolution > 0 && wheelRadius > 0 }
}

/// Pitch (and the gyroscope's pitch rate) → left and right wheel drive, for H-bridges
/// (TB6612FNG, L298N) driven by a PWM magnitude and two direction pins per motor; a drive
/// setpoint (speed, turn rate) moves the robot.
public struct BalanceController: Sendable {
    public var settings: BalanceSettings {
        didSet {
            pitchLoop.settings = settings.pitch
            yawLoop.settings = settings.yawRate
        }
    }
    public private(set) var pitchLoop: PIDController
    public private(set) var yawLoop: PIDController
    /// Low-passed mean wheel drive (the speed estimate without encoders).
    public private(set) var meanDrive: Float = 0
    /// Low-passed forward speed from the encoders, m/s (0 without).
    public private(set) var encoderSpeed: Float = 0
    /// The speed setpoint after the acceleration limit, m/s, and its rate, m/s².
    public private(set) var commandedSpeed: Float = 0
    public private(set) var commandedAcceleration: Float = 0
    /// The pitch the last update steered to, rad.
    public private(set) var pitchTarget: Float = 0
    /// The speed estimate comes from the encoders (configured, and their counts handed over).
    public private(set) var encodersActive = false
    var lastCounts = WheelCounts()
    var haveCounts = false
    /// Each wheel's drive (left, right) low-passed at the pitch PD's corner: the direction and
    /// size of the deadband compensation follow it, not the drive's every tick.
    @usableFromInline var compensationDrive: SIMD2<Float> = .zero

    public init(settings: BalanceSettings) {
        self.settings = settings
        pitchLoop = PIDController(settings: settings.pitch)
        yawLoop = PIDController(settings: settings.yawRate)
    }

    /// The forward speed estimate, m/s: the encoders', or the mean drive's at no load.
    @inlinable
    public var speedEstimate: Float { encodersActive ? encoderSpeed : meanDrive * settings.fullDriveSpeed }

    /// The lean the drive setpoint asks for, rad: the trim plus the lean into the commanded
    /// acceleration (what the body's true pitch should settle to while the speed tracks).
    @inlinable
    public var leanSetpoint: Float { settings.pitchSetpoint - settings.accelerationLean * commandedAcceleration }

    /// Starts closing the loop from rest (called on arming).
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func engage() {
        pitchLoop.enable(holding: 0)
        yawLoop.enable(holding: 0)
        meanDrive = 0
        encoderSpeed = 0
        commandedSpeed = 0
        commandedAcceleration = 0
        haveCounts = false
        compensationDrive = .zero
    }

    /// Wheel drives, −1…1, positive forward, standing still.
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func update(_ input: ControlInput) -> (left: Float, right: Float) {
        update(input, setpoint: DriveSetpoint(), wheels: nil)
    }

    /// Wheel drives, −1…1, positive forward, following `setpoint`; `wheels` are the encoder
    /// counts this tick when the robot has encoders.
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func update(_ input: ControlInput, setpoint: DriveSetpoint, wheels: WheelCounts?) -> (left: Float, right: Float) {
        let dt = input.dt
        let cutoff = settings.driveFeedbackCutoffHz
        let alpha: Float = cutoff > 0 && dt > 0 ? dt / (dt + 1 / (2 * .pi * cutoff)) : 0
        let fullSpeed = settings.fullDriveSpeed > 0 ? settings.fullDriveSpeed : 1
        updateCommandedSpeed(setpoint.speed.isFinite ? setpoint.speed : 0, dt: dt)
        encodersActive = false
        if settings.usesEncoders, let wheels {
            updateEncoderSpeed(wheels, pitchRate: input.rotationRate.x, dt: dt, alpha: alpha)
            encodersActive = true
        }
        // Speed error in drive units; standing still without encoders it is the mean drive itself.
        let speedError = encodersActive ? (encoderSpeed - commandedSpeed) / fullSpeed
            : meanDrive - commandedSpeed / fullSpeed
        let target = settings.pitchSetpoint + settings.driveFeedback * speedError
            - settings.accelerationLean * commandedAcceleration
        pitchTarget = target
        var drive = pitchLoop.update(setpoint: target, measurement: input.attitude.pitch,
                                     measuredRate: input.rotationRate.x, dt: dt)
        // The drive the commanded speed needs against the motors' back-EMF.
        if commandedSpeed != 0 { drive += commandedSpeed / fullSpeed }
        if alpha > 0 && drive.isFinite { meanDrive += alpha * (drive - meanDrive) }
        // Positive pitch leans back: the error (setpoint − pitch) is then negative and the
        // wheels drive backward under the body, as they must. A positive turn speeds up the
        // right wheel: counter-clockwise seen from above, positive yaw rate.
        let turnRate = setpoint.turnRate.isFinite ? setpoint.turnRate : 0
        var turn = yawLoop.update(setpoint: turnRate, measurement: input.rotationRate.z,
                                  measuredRate: 0, dt: dt)
        if turnRate != 0 { turn += settings.turnFeedforward * turnRate }
        let left = max(-1, min(1, compensated(drive - turn, wheel: 0, dt: dt)))
        let right = max(-1, min(1, compensated(drive + turn, wheel: 1, dt: dt)))
        return (left, right)
    }

    /// The least drive over which ``BalanceSettings/deadbandCompensation`` fades in from 0.
    @inlinable
    public static var deadbandFadeDrive: Float { 0.01 }

    /// `drive` plus the deadband compensation in the direction the wheel is driven over the
    /// loop's own time scale: the wheel's drive low-passed at the pitch PD's corner kp/kd (its
    /// zero, below the loop's crossover), faded in over a drive as large as the compensation.
    ///
    /// The compensation changes sign with the drive, a relay of ±compensation inside the loop.
    /// Following the drive tick by tick, that relay held a limit cycle at the loop's phase
    /// crossover: a light robot's wheels reversed hundreds of times a second standing still
    /// (a 0.35 kg robot on N20 100:1 motors, 0.06: 197 /s; the default robot 27 /s). Low-passed
    /// below the crossover it adds no gain there, and a drive held for the loop's time scale
    /// (against gravity, friction, a deadband) still gets the whole compensation.
    @inlinable
    mutating func compensated(_ drive: Float, wheel: Int, dt: Float) -> Float {
        let compensation = settings.deadbandCompensation
        guard compensation > 0 else { return drive }
        let p = settings.pitch
        // The PD's corner; a loop without D follows the drive (as before this low-pass).
        let corner = p.proportionalGain > 0 && p.derivativeGain > 0 ? p.proportionalGain / p.derivativeGain : 0
        let alpha: Float = corner > 0 && dt > 0 ? dt / (dt + 1 / corner) : 1
        if drive.isFinite { compensationDrive[wheel] += alpha * (drive - compensationDrive[wheel]) }
        return drive + compensation * max(-1, min(1, compensationDrive[wheel] / max(Self.deadbandFadeDrive, compensation)))
    }

    /// Time the commanded acceleration takes to go from 0 to `maxAcceleration`, s: a
    /// jerk limit, so the lean into an acceleration is a ramp the body can follow, not a
    /// step it overshoots.
    public static let jerkTime: Float = 0.25

    /// Moves the commanded speed toward `speed` no faster than `maxAcceleration`, its
    /// acceleration changing no faster than `maxAcceleration / jerkTime`: the speed gap asks
    /// for `gap / jerkTime` of acceleration (clamped), so the acceleration has ramped back to
    /// 0 as the speed arrives.
    mutating func updateCommandedSpeed(_ speed: Float, dt: Float) {
        guard dt > 0 else { return }
        let limit = settings.maxAcceleration
        guard limit > 0 else {
            commandedSpeed = speed
            commandedAcceleration = 0
            return
        }
        let wanted = max(-limit, min(limit, (speed - commandedSpeed) / Self.jerkTime))
        let jerkStep = limit / Self.jerkTime * dt
        commandedAcceleration += max(-jerkStep, min(jerkStep, wanted - commandedAcceleration))
        commandedSpeed += commandedAcceleration * dt
    }

    /// Forward speed from the wheels' turn relative to the body plus the body's own turn
    /// (the encoders sit in the body): v = r (θ̇_wheel − pitch rate).
    mutating func updateEncoderSpeed(_ wheels: WheelCounts, pitchRate: Float, dt: Float, alpha: Float) {
        defer { lastCounts = wheels; haveCounts = true }
        guard haveCounts, dt > 0 else { return }
        let counts = Float(wheels.left &- lastCounts.left) + Float(wheels.right &- lastCounts.right)
        let wheelRate = counts / 2 * (2 * .pi / settings.encoderCountsPerRevolution) / dt
        let speed = settings.wheelRadius * (wheelRate - pitchRate)
        if speed.isFinite { encoderSpeed += (alpha > 0 ? alpha : 1) * (speed - encoderSpeed) }
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
