/// Where the arming supervisor stands. Outputs follow the controller only while `armed`.
public enum ArmState: UInt8, Sendable, CaseIterable, BitwiseCopyable {
    /// Outputs at their safe values, waiting for the arming conditions.
    case disarmed = 0
    /// Outputs follow the controller.
    case armed = 1
    /// A fault forced the outputs safe; see the event's reason.
    case failsafe = 2

    public var name: StaticString {
        switch self {
        case .disarmed: "disarmed"
        case .armed: "armed"
        case .failsafe: "failsafe"
        }
    }
}

/// Why the supervisor changed state. Static text, so the tick can report one without
/// allocating; the logger thread prints it.
public enum SafetyReason: UInt8, Sendable, CaseIterable, BitwiseCopyable {
    case none = 0
    /// Level, sensor healthy and filter initialised for the hold time.
    case armingConditionsMet
    /// Tilt from vertical beyond `safety.max_tilt_deg`.
    case tiltLimit
    /// The sensor read failed after the driver's retries, the driver declared the sensor
    /// lost, or no new sample came for `safety.sensor_timeout_ms`.
    case sensorLost
    /// The attitude estimate is not finite.
    case nonFiniteAttitude
    /// A controller command is not finite.
    case nonFiniteCommand
    /// `loop.overrun_limit` ticks in a row overran their period.
    case overrunStreak
    /// SIGINT/SIGTERM or the end of `--duration`.
    case stopRequested
    /// An output could not be written, or another unexpected error.
    case unexpectedError
    /// A fault that re-arming may recover from has cleared.
    case faultCleared
    /// A tick woke later than `safety.stall_ms` after the one before (the process was
    /// stopped, starved or swapped out): the outputs had been held that long unsupervised.
    case stall
    /// The arming switch went from off to on while every arming condition held.
    case switchArmed
    /// The arming switch was turned off.
    case switchOff
    /// A configuration register the driver re-reads (one per tick) changed: the chip reset
    /// itself to its power-on values (a brown-out); the driver re-configures it.
    case chipReset
    /// The filter stopped trusting its attitude while armed (the gyroscope clipped: the rate
    /// it integrated was short of the true one), so the estimate the controller acts on may be
    /// anything; arming again waits for the accelerometer to re-establish it.
    case estimateLost
    /// The ground station's arm command, taken while every arming condition held.
    case commandArmed
    /// The ground station's disarm command.
    case commandDisarmed
    /// Live setpoints (MANUAL_CONTROL), once received, stopped for
    /// `telemetry.setpoint_timeout_ms` while armed (ArduPilot's RC failsafe).
    case setpointLost
    /// The gamepad's arm button, pressed while every arming condition held
    /// (`safety.arm_source: gamepad`).
    case gamepadArmed
    /// The gamepad's disarm button.
    case gamepadDisarmed

    public var text: StaticString {
        switch self {
        case .none: "none"
        case .armingConditionsMet: "level, sensor healthy and filter initialised"
        case .tiltLimit: "tilt beyond safety.max_tilt_deg"
        case .sensorLost: "sensor lost"
        case .nonFiniteAttitude: "attitude estimate not finite"
        case .nonFiniteCommand: "controller command not finite"
        case .overrunStreak: "loop overran loop.overrun_limit ticks in a row"
        case .stopRequested: "stop requested"
        case .unexpectedError: "unexpected error"
        case .faultCleared: "fault cleared"
        case .stall: "loop stalled longer than safety.stall_ms"
        case .switchArmed: "arming switch on while level, sensor healthy and filter initialised"
        case .switchOff: "arming switch off"
        case .chipReset: "sensor chip reset: a configuration register changed (brown-out?); re-configuring"
        case .estimateLost: "attitude estimate lost (gyroscope clipped): not converged while armed"
        case .commandArmed: "arm command; level, healthy, converged"
        case .commandDisarmed: "disarm command"
        case .setpointLost: "setpoints lost for telemetry.setpoint_timeout_ms"
        case .gamepadArmed: "gamepad arm button; level, healthy, converged"
        case .gamepadDisarmed: "gamepad disarm button"
        }
    }

    /// Faults after which the supervisor never arms again in this run.
    public var latches: Bool { self == .stopRequested || self == .unexpectedError }
}

/// One state change, for the log and the recording.
@frozen
public struct SafetyEvent: Sendable, Equatable {
    public var time: Double
    public var from: ArmState
    public var to: ArmState
    public var reason: SafetyReason

    @inlinable
    public init(time: Double, from: ArmState, to: ArmState, reason: SafetyReason) {
        self.time = time
        self.from = from
        self.to = to
        self.reason = reason
    }
}
