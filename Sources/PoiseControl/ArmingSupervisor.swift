/// Limits of the arming supervisor, SI units.
@frozen
public struct SafetySettings: Sendable, Equatable {
    /// Tilt from vertical beyond which the outputs go safe, rad.
    public var maxTilt: Float
    /// Tilt from vertical within which arming is allowed, rad.
    public var armTilt: Float
    /// How long the arming conditions must hold before arming, s.
    public var armHoldTime: Double
    /// Longest gap between good samples before the sensor counts as lost, s.
    public var sensorTimeout: Double
    /// Overrunning ticks in a row that force the outputs safe; 0 never.
    public var overrunLimit: Int
    /// Arm by itself when the conditions hold (the only way to arm a headless board).
    public var autoArm: Bool

    @inlinable
    public init(maxTilt: Float = 45 * .pi / 180, armTilt: Float = 15 * .pi / 180, armHoldTime: Double = 0.5,
                sensorTimeout: Double = 0.02, overrunLimit: Int = 10, autoArm: Bool = true) {
        self.maxTilt = maxTilt
        self.armTilt = armTilt
        self.armHoldTime = armHoldTime
        self.sensorTimeout = sensorTimeout
        self.overrunLimit = overrunLimit
        self.autoArm = autoArm
    }
}

/// What the supervisor looks at each tick.
@frozen
public struct SafetyInputs: Sendable {
    /// Tick time, s.
    public var time: Double
    /// A new good sample arrived this tick.
    public var freshSample: Bool
    /// The read failed after the driver's retries, or the driver declared the sensor lost.
    public var sensorFailed: Bool
    /// The filter has converged (no longer initialising) and the start-up gyroscope bias is known.
    public var estimatorReady: Bool
    /// Angle between body z and world vertical, rad.
    public var tilt: Float
    public var attitudeFinite: Bool
    public var commandFinite: Bool
    /// Ticks in a row that overran.
    public var overrunStreak: Int
    public var stopRequested: Bool
    public var unexpectedError: Bool

    @inlinable
    public init(time: Double, freshSample: Bool = true, sensorFailed: Bool = false, estimatorReady: Bool = true,
                tilt: Float = 0, attitudeFinite: Bool = true, commandFinite: Bool = true, overrunStreak: Int = 0,
                stopRequested: Bool = false, unexpectedError: Bool = false) {
        self.time = time
        self.freshSample = freshSample
        self.sensorFailed = sensorFailed
        self.estimatorReady = estimatorReady
        self.tilt = tilt
        self.attitudeFinite = attitudeFinite
        self.commandFinite = commandFinite
        self.overrunStreak = overrunStreak
        self.stopRequested = stopRequested
        self.unexpectedError = unexpectedError
    }
}

/// Disarmed at start; arms when level, healthy and initialised for a hold time; on any fault
/// goes to failsafe in the same tick (the caller drives the outputs safe that tick). After a
/// fault that can clear (tilt, sensor, non-finite values, overruns) it returns to disarmed
/// once the fault is gone and may arm again under the same conditions as at start; a stop or
/// an unexpected error latches. Each change is reported once, as ``lastEvent``.
public struct ArmingSupervisor: Sendable {
    public var settings: SafetySettings
    public private(set) var state: ArmState = .disarmed
    /// The reason of the last transition.
    public private(set) var reason: SafetyReason = .none
    /// The transition made by the last `update`, if any.
    public private(set) var lastEvent: SafetyEvent?
    var lastGoodSample: Double = -.infinity
    var conditionsSince: Double = .nan

    public init(settings: SafetySettings) { self.settings = settings }

    /// The fault present in `inputs`, if any, in order of precedence.
    public func fault(_ inputs: SafetyInputs) -> SafetyReason? {
        if inputs.stopRequested { return .stopRequested }
        if inputs.unexpectedError { return .unexpectedError }
        if inputs.sensorFailed || inputs.time - lastGoodSample > settings.sensorTimeout { return .sensorLost }
        if !inputs.attitudeFinite || !inputs.tilt.isFinite { return .nonFiniteAttitude }
        if !inputs.commandFinite { return .nonFiniteCommand }
        if settings.overrunLimit > 0 && inputs.overrunStreak >= settings.overrunLimit { return .overrunStreak }
        if inputs.tilt > settings.maxTilt { return .tiltLimit }
        return nil
    }

    /// Steps the state machine; returns the state the outputs must follow this tick.
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func update(_ inputs: SafetyInputs) -> ArmState {
        lastEvent = nil
        if inputs.freshSample && !inputs.sensorFailed { lastGoodSample = inputs.time }
        // Before the first sample the sensor is starting, not lost.
        let fault: SafetyReason? = lastGoodSample == -.infinity && !inputs.sensorFailed
            ? (inputs.stopRequested ? .stopRequested : inputs.unexpectedError ? .unexpectedError : nil)
            : self.fault(inputs)
        switch state {
        case .armed:
            if let fault { transition(to: .failsafe, fault, at: inputs.time) }
        case .disarmed:
            if let fault, fault.latches {
                transition(to: .failsafe, fault, at: inputs.time)
            } else if fault == nil && settings.autoArm && inputs.estimatorReady && inputs.tilt <= settings.armTilt {
                if conditionsSince.isNaN { conditionsSince = inputs.time }
                if inputs.time - conditionsSince >= settings.armHoldTime {
                    transition(to: .armed, .armingConditionsMet, at: inputs.time)
                }
            } else {
                conditionsSince = .nan
            }
        case .failsafe:
            if reason.latches { break }
            if let fault, fault.latches {
                transition(to: .failsafe, fault, at: inputs.time)
            } else if fault == nil {
                transition(to: .disarmed, .faultCleared, at: inputs.time)
            }
        }
        return state
    }

    mutating func transition(to next: ArmState, _ why: SafetyReason, at time: Double) {
        lastEvent = SafetyEvent(time: time, from: state, to: next, reason: why)
        state = next
        reason = why
        conditionsSince = .nan
    }
}
