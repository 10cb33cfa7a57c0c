/// What arms the outputs.
public enum ArmSource: UInt8, Sendable, Equatable, BitwiseCopyable {
    /// The supervisor itself, when the arming conditions have held for the hold time.
    case automatic
    /// The user's switch, turned from off to on while the arming conditions hold.
    case armSwitch
    /// The ground station's arm/disarm command (MAV_CMD_COMPONENT_ARM_DISARM): an arm request
    /// taken while the arming conditions hold arms once they have held for the hold time (as
    /// every arming does); it is dropped if they break first.
    case command
    /// A gamepad's arm and disarm buttons (`input.gamepad`), taken as a command is; the
    /// supervisor never arms by itself for it.
    case gamepad
}

/// An arm or disarm command from the ground station, handed to the tick once.
public enum ArmCommand: UInt8, Sendable, Equatable, BitwiseCopyable {
    case none = 0
    case arm = 1
    case disarm = 2
}

/// Whether the supervisor may arm again by itself after a failsafe.
public enum RearmPolicy: UInt8, Sendable, Equatable, BitwiseCopyable {
    /// Never in this run (a switch source needs the switch cycled instead).
    case never
    /// Once the fault has cleared and the arming conditions hold again (a balancing robot
    /// picked up and set upright); never allowed for a quadrotor.
    case whenLevel
}

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
    /// A tick that wakes this much later than due goes failsafe, s (the loop measures it).
    public var stallTime: Double
    public var armSource: ArmSource
    public var rearm: RearmPolicy

    /// The angles are converted in `Double` and rounded once, as the configuration converts
    /// `safety.max_tilt_deg`, so these defaults are the file's 45° and 15° exactly.
    @inlinable
    public init(maxTilt: Float = Float(45 * Double.pi / 180), armTilt: Float = Float(15 * Double.pi / 180), armHoldTime: Double = 0.5,
                sensorTimeout: Double = 0.02, overrunLimit: Int = 10, autoArm: Bool = true,
                stallTime: Double = 0.02, armSource: ArmSource = .automatic, rearm: RearmPolicy = .never) {
        self.maxTilt = maxTilt
        self.armTilt = armTilt
        self.armHoldTime = armHoldTime
        self.sensorTimeout = sensorTimeout
        self.overrunLimit = overrunLimit
        self.autoArm = autoArm
        self.stallTime = stallTime
        self.armSource = armSource
        self.rearm = rearm
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
    /// The filter's attitude is established: not lost to gyroscope clipping, a stall or a
    /// failsafe since the accelerometer last confirmed it (`FilterFlags.notConverged` clear).
    public var attitudeConverged: Bool
    /// Angle between body z and world vertical, rad.
    public var tilt: Float
    public var attitudeFinite: Bool
    public var commandFinite: Bool
    /// Ticks in a row that overran.
    public var overrunStreak: Int
    public var stopRequested: Bool
    public var unexpectedError: Bool
    /// This tick woke later than ``SafetySettings/stallTime``.
    public var stalled: Bool
    /// The arming switch is on (debounced; ignored unless the source is the switch).
    public var armSwitch: Bool
    /// The driver found a configuration register changed this tick: the chip reset itself.
    public var chipReset: Bool
    /// An arm/disarm command this tick (acted on only when the source is ``ArmSource/command``).
    public var armCommand: ArmCommand = .none
    /// Live setpoints, once received, stopped for `telemetry.setpoint_timeout_ms` (the
    /// loop sets it only where losing them is a fault: a quadrotor).
    public var setpointLost = false

    @inlinable
    public init(time: Double, freshSample: Bool = true, sensorFailed: Bool = false, estimatorReady: Bool = true,
                attitudeConverged: Bool = true, tilt: Float = 0, attitudeFinite: Bool = true, commandFinite: Bool = true, overrunStreak: Int = 0,
                stopRequested: Bool = false, unexpectedError: Bool = false, stalled: Bool = false,
                armSwitch: Bool = false, chipReset: Bool = false) {
        self.chipReset = chipReset
        self.stalled = stalled
        self.armSwitch = armSwitch
        self.time = time
        self.freshSample = freshSample
        self.sensorFailed = sensorFailed
        self.estimatorReady = estimatorReady
        self.attitudeConverged = attitudeConverged
        self.tilt = tilt
        self.attitudeFinite = attitudeFinite
        self.commandFinite = commandFinite
        self.overrunStreak = overrunStreak
        self.stopRequested = stopRequested
        self.unexpectedError = unexpectedError
    }
}

/// Disarmed at start; arms when level, healthy and initialised for a hold time (by itself, or
/// on the arming switch's off → on edge); on any fault goes to failsafe in the same tick (the
/// caller drives the outputs safe that tick). After a fault that can clear (tilt, sensor,
/// non-finite values, overruns, a stall) it returns to disarmed once the fault is gone; it
/// arms again by itself only under ``RearmPolicy/whenLevel``, and with a switch only when the
/// switch is cycled. A stop or an unexpected error latches; turning the switch off disarms at
/// once. Each change is reported once, as ``lastEvent``.
public struct ArmingSupervisor: Sendable {
    public var settings: SafetySettings
    public private(set) var state: ArmState = .disarmed
    /// The reason of the last transition.
    public private(set) var reason: SafetyReason = .none
    /// The transition made by the last `update`, if any.
    public private(set) var lastEvent: SafetyEvent?
    var lastGoodSample: Double = -.infinity
    var conditionsSince: Double = .nan
    /// The switch as the last tick saw it; on at start, so a switch left on must be cycled.
    var switchWasOn = true
    /// A failsafe happened in this run.
    public private(set) var hasFailedSafe = false
    /// An arm request (command or gamepad) waiting for the conditions to have held for
    /// ``SafetySettings/armHoldTime``.
    public private(set) var armPending = false
    /// A ground station's disarm under ``ArmSource/automatic``: the supervisor does not arm by
    /// itself again in this run (a restart arms again). Under the switch the switch must be
    /// cycled, under a command or the gamepad a new request arms: each source's own rule.
    public private(set) var disarmHeld = false

    public init(settings: SafetySettings) { self.settings = settings }

    /// The fault present in `inputs`, if any, in order of precedence.
    public func fault(_ inputs: SafetyInputs) -> SafetyReason? {
        if inputs.stopRequested { return .stopRequested }
        if inputs.unexpectedError { return .unexpectedError }
        // A stall matters while the outputs are driven; disarmed or failsafe they are already
        // safe, and ignoring it there keeps a recording's `event` column enough to replay it.
        if inputs.stalled && state == .armed { return .stall }
        if inputs.chipReset { return .chipReset }
        // Driven outputs must follow an estimate the filter still trusts; disarmed or
        // failsafe, the arming rule below waits for it instead.
        if !inputs.attitudeConverged && state == .armed { return .estimateLost }
        if inputs.sensorFailed || inputs.time - lastGoodSample > settings.sensorTimeout { return .sensorLost }
        if !inputs.attitudeFinite || !inputs.tilt.isFinite { return .nonFiniteAttitude }
        if !inputs.commandFinite { return .nonFiniteCommand }
        if settings.overrunLimit > 0 && inputs.overrunStreak >= settings.overrunLimit { return .overrunStreak }
        if inputs.tilt > settings.maxTilt { return .tiltLimit }
        if inputs.setpointLost && state == .armed { return .setpointLost }
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
        let useSwitch = settings.armSource == .armSwitch
        let switchTurnedOn = inputs.armSwitch && !switchWasOn
        switchWasOn = inputs.armSwitch
        switch state {
        case .armed:
            if let fault {
                transition(to: .failsafe, fault, at: inputs.time)
            } else if useSwitch && !inputs.armSwitch {
                transition(to: .disarmed, .switchOff, at: inputs.time)
            } else if inputs.armCommand == .disarm {
                // A disarm request always disarms, whatever arms the outputs.
                transition(to: .disarmed, settings.armSource == .gamepad ? .gamepadDisarmed : .commandDisarmed, at: inputs.time)
                if settings.armSource == .automatic { disarmHeld = true }
            }
        case .disarmed:
            // A request source (the ground station, the gamepad) arms only on request, never by itself.
            let byCommand = settings.armSource == .command || settings.armSource == .gamepad
            let mayArm = useSwitch || byCommand || (settings.armSource == .automatic && settings.autoArm && !disarmHeld
                                                    && (!hasFailedSafe || settings.rearm == .whenLevel))
            if inputs.armCommand == .disarm { armPending = false }
            if let fault, fault.latches {
                transition(to: .failsafe, fault, at: inputs.time)
            } else if fault == nil && mayArm && Self.readiness(estimatorReady: inputs.estimatorReady, attitudeConverged: inputs.attitudeConverged,
                                                               tilt: inputs.tilt, armTilt: settings.armTilt) == nil {
                if conditionsSince.isNaN { conditionsSince = inputs.time }
                let held = inputs.time - conditionsSince >= settings.armHoldTime
                if byCommand {
                    // Each source reports itself: the ground station's command or the gamepad's button.
                    if inputs.armCommand == .arm { armPending = true }
                    if armPending && held {
                        transition(to: .armed, settings.armSource == .gamepad ? .gamepadArmed : .commandArmed, at: inputs.time)
                    }
                } else if useSwitch {
                    if held && switchTurnedOn { transition(to: .armed, .switchArmed, at: inputs.time) }
                } else if held {
                    transition(to: .armed, .armingConditionsMet, at: inputs.time)
                }
            } else {
                conditionsSince = .nan
                armPending = false
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
        if next == .failsafe { hasFailedSafe = true }
        state = next
        reason = why
        conditionsSince = .nan
        armPending = false
    }
}
