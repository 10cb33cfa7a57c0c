import PoiseMath

/// Settings of the cascaded quadrotor attitude controller. Angle errors (rad) become rate
/// setpoints (rad/s) through a P gain; rate errors become torque demands in throttle units
/// through PIDs, as in ArduPilot's and PX4's multicopter controllers.
@frozen
public struct QuadSettings: Sendable, Equatable {
    public var frame: QuadFrame
    /// Rate setpoint per rad of pitch/roll error, 1/s.
    public var angleGain: Float
    /// Largest pitch/roll rate setpoint, rad/s.
    public var maxTiltRate: Float
    /// Pitch rate (body x) → pitch torque demand.
    public var pitchRate: PIDSettings
    /// Roll rate (body y) → roll torque demand.
    public var rollRate: PIDSettings
    /// Yaw rate (body z) → yaw torque demand.
    public var yawRate: PIDSettings
    /// Heading hold: yaw rate setpoint per rad of heading error, 1/s; 0 holds yaw rate 0
    /// instead (rate mode).
    public var headingGain: Float
    /// Largest yaw rate setpoint, rad/s.
    public var maxYawRate: Float
    /// Throttle of a spinning motor at zero demand while armed, 0…1.
    public var idleThrottle: Float
    /// Added to the pitch, roll and yaw rate setpoints, rad/s: zero in flight; `poise tune`'s
    /// relays move it by ± their hysteresis each tick.
    public var rateOffset = SIMD3<Float>.zero

    @inlinable
    public init(frame: QuadFrame = .x, angleGain: Float = 4.5, maxTiltRate: Float = Float(200 * Double.pi / 180),
                pitchRate: PIDSettings = QuadSettings.defaultRate, rollRate: PIDSettings = QuadSettings.defaultRate,
                yawRate: PIDSettings = PIDSettings(proportionalGain: 0.2, integralGain: 0.02, derivativeGain: 0,
                                                   derivativeCutoffHz: 20, outputLimit: 0.5, integralLimit: 0.2),
                headingGain: Float = 0, maxYawRate: Float = Float(90 * Double.pi / 180), idleThrottle: Float = 0.08) {
        self.frame = frame
        self.angleGain = angleGain
        self.maxTiltRate = maxTiltRate
        self.pitchRate = pitchRate
        self.rollRate = rollRate
        self.yawRate = yawRate
        self.headingGain = headingGain
        self.maxYawRate = maxYawRate
        self.idleThrottle = idleThrottle
    }

    /// ArduPilot's default roll/pitch rate gains (0.135, 0.135, 0.0036, D filter 20 Hz), in
    /// the same throttle-per-rad/s units.
    public static let defaultRate = PIDSettings(proportionalGain: 0.135, integralGain: 0.135, derivativeGain: 0.0036,
                                                derivativeCutoffHz: 20, outputLimit: 1, integralLimit: 0.5)
}

/// What the quadrotor is asked to do.
@frozen
public struct QuadSetpoint: Sendable, Equatable {
    /// Collective throttle 0…1 (on a test stand: a fixed test throttle or a setpoint file).
    public var thrust: Float
    /// Target pitch and roll, rad.
    public var pitch: Float
    public var roll: Float
    /// Target heading, rad (used when `headingGain` > 0).
    public var heading: Float
    /// Target yaw rate about body z, rad/s, counter-clockwise from above (used when
    /// `headingGain` is 0: a pilot's twist stick).
    public var yawRate: Float = 0

    @inlinable
    public init(thrust: Float = 0, pitch: Float = 0, roll: Float = 0, heading: Float = 0) {
        self.thrust = thrust
        self.pitch = pitch
        self.roll = roll
        self.heading = heading
    }
}

/// Angle → rate → torque cascade for roll and pitch, rate (or heading) for yaw, then the
/// ``MotorMixer``.
public struct QuadAttitudeController: Sendable {
    public var settings: QuadSettings {
        didSet {
            pitchLoop.settings = settings.pitchRate
            rollLoop.settings = settings.rollRate
            yawLoop.settings = settings.yawRate
        }
    }
    public private(set) var pitchLoop: PIDController
    public private(set) var rollLoop: PIDController
    public private(set) var yawLoop: PIDController

    public init(settings: QuadSettings) {
        self.settings = settings
        pitchLoop = PIDController(settings: settings.pitchRate)
        rollLoop = PIDController(settings: settings.rollRate)
        yawLoop = PIDController(settings: settings.yawRate)
    }

    /// Starts closing the loops from rest (called on arming).
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func engage() {
        pitchLoop.enable(holding: 0)
        rollLoop.enable(holding: 0)
        yawLoop.enable(holding: 0)
    }

    /// Motor throttles 0…1 (idle…1 while armed, 0 when not).
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func update(_ input: ControlInput, setpoint: QuadSetpoint, armed: Bool) -> SIMD4<Float> {
        let a = input.attitude, rate = input.rotationRate, dt = input.dt
        let limit = settings.maxTiltRate
        let pitchRateTarget = max(-limit, min(limit, settings.angleGain * (setpoint.pitch - a.pitch)))
        let rollRateTarget = max(-limit, min(limit, settings.angleGain * (wrapped(setpoint.roll - a.roll))))
        var yawRateTarget: Float = max(-settings.maxYawRate, min(settings.maxYawRate, setpoint.yawRate))
        if settings.headingGain > 0 {
            yawRateTarget = max(-settings.maxYawRate, min(settings.maxYawRate,
                                                          settings.headingGain * wrapped(setpoint.heading - a.yaw)))
        }
        let offset = settings.rateOffset
        let pitch = pitchLoop.update(setpoint: pitchRateTarget + offset.x, measurement: rate.x, dt: dt)
        let roll = rollLoop.update(setpoint: rollRateTarget + offset.y, measurement: rate.y, dt: dt)
        let yaw = yawLoop.update(setpoint: yawRateTarget + offset.z, measurement: rate.z, dt: dt)
        let mixer = MotorMixer(frame: settings.frame, idleThrottle: settings.idleThrottle)
        return mixer.mix(thrust: setpoint.thrust, pitch: pitch, roll: roll, yaw: yaw, armed: armed)
    }

    func wrapped(_ angle: Float) -> Float {
        var a = angle
        if a > .pi { a -= 2 * .pi } else if a < -.pi { a += 2 * .pi }
        return a
    }
}
