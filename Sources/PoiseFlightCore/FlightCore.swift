import PoiseControl
import PoiseFusion
import PoiseMath

/// The controller a configuration asks for, as a value (no existential in the tick).
public enum ControllerState: Sendable {
    case none
    case balance(BalanceController)
    case quad(QuadAttitudeController)
}

/// What the loop knows each tick that the core cannot see for itself.
@frozen
public struct LoopStatus: Sendable {
    /// Ticks in a row that overran their period.
    public var overrunStreak: Int = 0
    /// SIGINT/SIGTERM or the end of `--duration`.
    public var stopRequested = false
    /// An output write failed or another unexpected error.
    public var unexpectedError = false
    /// Quadrotor setpoint this tick (test throttle or setpoint file).
    public var quadSetpoint = QuadSetpoint()
    /// Balancing robot's drive setpoint this tick (drive script, or a live source that
    /// overrides it); zero stands still.
    public var driveSetpoint = DriveSetpoint()
    /// The wheel encoders' counts as their reader last handed them over; nil without encoders.
    public var wheelCounts: WheelCounts?
    /// How late this tick woke when that was beyond `safety.stall_ms`, ns; 0 otherwise.
    public var stallNanoseconds: Int64 = 0
    /// The arming switch is on (debounced), as the switch's reader last handed it over.
    public var armSwitch = false
    /// The ground station's arm/disarm command, this tick only.
    public var armCommand: ArmCommand = .none
    /// Live setpoints were received and then lost for `telemetry.setpoint_timeout_ms`.
    public var setpointLost = false

    public init() {}
}

/// One tick's result: what to write and what to record.
@frozen
public struct TickOutput: Sendable {
    public var commands: ChannelCommands
    public var state: ArmState
    /// The transition this tick made, if any (the log thread prints it).
    public var event: SafetyEvent?

    @inlinable
    public init(commands: ChannelCommands, state: ArmState, event: SafetyEvent?) {
        self.commands = commands
        self.state = state
        self.event = event
    }
}

/// sensor sample → filter → controller → supervisor → output mapping: the one tick function
/// the live loop, `poise simulate` and `poise replay --config` all run, so a recorded run
/// replays to the same estimates and outputs.
///
/// Generic over the filter (specialised, never an existential); fixed size, value-typed.
/// `tick` allocates nothing and takes no locks.
public struct FlightCore<Filter: AttitudeFilter> {
    public var filter: Filter
    public var controller: ControllerState
    public var supervisor: ArmingSupervisor
    public var mapper: OutputMapper
    public var frameTransform: OutputFrameTransform
    public var startupBias: StartupBias
    /// The gyroscope's low-pass and notches (FlightCore+GyroFilters.swift); off unless configured.
    public var gyroFilters: GyroFilterBank = .off
    /// Signals of the last tick.
    public var signals = SignalFrame()
    /// Body-to-world (ENU) attitude of the last tick.
    public var attitude: Quaternion = .identity
    /// Bias-corrected body rate of the last sample, rad/s.
    public var rotationRate: SIMD3<Float> = .zero
    /// The last sample's gyroscope after `gyroFilters` (the low-pass and notches), before any
    /// bias is removed, rad/s: what the filters let through to the estimate and the loops.
    public var lastFilteredGyroscope: SIMD3<Float> = SIMD3(repeating: .nan)
    @usableFromInline var lastSampleTime: Double = .nan
    @usableFromInline var lastTickTime: Double = .nan

    public init(filter: Filter, controller: ControllerState, safety: SafetySettings, mapper: OutputMapper,
                frame: OutputFrameTransform, startupBias: StartupBias) {
        self.filter = filter
        self.controller = controller
        supervisor = ArmingSupervisor(settings: safety)
        self.mapper = mapper
        frameTransform = frame
        self.startupBias = startupBias
    }

    /// Runs one tick on `reading`, taken at `reading.time` (s).
    @inlinable
    public mutating func tick(_ reading: SensorReading, loop: LoopStatus) -> TickOutput {
        let tickDt: Float = lastTickTime.isNaN ? 0 : Float(reading.time - lastTickTime)
        lastTickTime = reading.time
        // The estimate was held, not propagated, through a stall.
        if loop.stallNanoseconds > 0 { filter.loseConvergence() }
        var dt: Float = 0
        if let sample = reading.sample {
            // dt from the sensor's timestamps, not the nominal period.
            dt = lastSampleTime.isNaN ? 0 : Float(reading.time - lastSampleTime)
            lastSampleTime = reading.time
            let measured = filteredGyroscope(sample.gyroscope)
            lastFilteredGyroscope = measured
            let measuring = !startupBias.ready
            startupBias.add(measured, at: reading.time)
            // From this sample on the filter sees the readings less the measured bias; it moves
            // its own bias state with them rather than see a step.
            if measuring && startupBias.ready { filter.gyroscopeReadingsShift(by: startupBias.bias) }
            let gyroscope = measured - startupBias.bias
            let input = InertialSample(accelerometer: sample.accelerometer, gyroscope: gyroscope,
                                       magnetometer: sample.magnetometer, gyroscopeClipped: sample.gyroscopeClipped)
            if dt > 0 { filter.updateTrackingConvergence(input, dt: dt) }
            rotationRate = gyroscope - filter.status.gyroscopeBias
        }
        attitude = filter.attitude
        let euler = EulerAngles(attitude)
        // Tilt of body z from vertical: R[2][2] = 1 − 2(x² + y²).
        let cosTilt = 1 - 2 * (attitude.x * attitude.x + attitude.y * attitude.y)
        let tilt = acosClamped(cosTilt)
        let finite = attitude.w.isFinite && attitude.x.isFinite && attitude.y.isFinite && attitude.z.isFinite
        let armed = supervisor.state == .armed
        let input = ControlInput(attitude: euler, rotationRate: rotationRate, dt: dt > 0 ? dt : tickDt)
        var commandFinite = true
        switch controller {
        case .none:
            break
        case .balance(var balance):
            if armed && reading.hasSample {
                let drive = balance.update(input, setpoint: loop.driveSetpoint, wheels: loop.wheelCounts)
                commandFinite = drive.left.isFinite && drive.right.isFinite
                signals.setWheel(left: drive.left)
                signals.setWheel(right: drive.right)
            } else if !armed {
                signals.setWheel(left: 0)
                signals.setWheel(right: 0)
            }
            controller = .balance(balance)
        case .quad(var quad):
            if armed && reading.hasSample {
                let motors = quad.update(input, setpoint: loop.quadSetpoint, armed: true)
                commandFinite = all(motors .== motors)   // NaN is the only value unequal to itself
                signals[.motor1] = motors[0]
                signals[.motor2] = motors[1]
                signals[.motor3] = motors[2]
                signals[.motor4] = motors[3]
            } else if !armed {
                signals[.motor1] = 0
                signals[.motor2] = 0
                signals[.motor3] = 0
                signals[.motor4] = 0
            }
            controller = .quad(quad)
        }
        let flags = filter.status.flags
        var safety = SafetyInputs(
            time: reading.time, freshSample: reading.hasSample,
            sensorFailed: reading.isLost || reading.readFailed,
            estimatorReady: startupBias.ready && !flags.contains(.initialising),
            attitudeConverged: !flags.contains(.notConverged), tilt: tilt,
            attitudeFinite: finite, commandFinite: commandFinite, overrunStreak: loop.overrunStreak,
            unexpectedError: loop.unexpectedError,
            stalled: loop.stallNanoseconds > 0, armSwitch: loop.armSwitch,
            chipReset: reading.notices.kinds.contains(.chipReset))
        safety.armCommand = loop.armCommand
        safety.setpointLost = loop.setpointLost
        // A requested stop is a disarm of its own (``ArmingSupervisor/stop(at:)``), not a fault.
        let event: SafetyEvent?
        if loop.stopRequested {
            event = supervisor.stop(at: reading.time)
        } else {
            _ = supervisor.update(safety)
            event = supervisor.lastEvent
        }
        let state = supervisor.state
        if state == .armed && !armed { engage() }
        // Whatever made the outputs fail safe (a fall, a flip) may have left the estimate wrong:
        // it must be re-established before arming again.
        if state == .failsafe, case .some = event { filter.loseConvergence() }
        let reported = EulerAngles(frameTransform.attitude(fromENU: attitude))
        signals[.pitch] = reported.pitch
        signals[.roll] = reported.roll
        signals[.yaw] = reported.yaw
        signals[.armed] = state == .armed ? 1 : 0
        signals[.fault] = state == .failsafe ? 1 : 0
        signals[.faceDown] = cosTilt < -0.5 ? 1 : 0
        signals[.atRest] = flags.contains(.atRest) ? 1 : 0
        let commands = mapper.map(signals, live: state == .armed, dt: tickDt)
        return TickOutput(commands: commands, state: state, event: event)
    }

    /// Closes the control loops from rest on arming (bumpless).
    @inlinable
    mutating func engage() {
        switch controller {
        case .none: break
        case .balance(var balance):
            balance.engage()
            controller = .balance(balance)
        case .quad(var quad):
            quad.engage()
            controller = .quad(quad)
        }
    }

    @inlinable
    func acosClamped(_ c: Float) -> Float {
        // acos without Foundation: atan2(√(1−c²), c).
        let cc = max(-1, min(1, c))
        return _atan2(squareRoot(1 - cc * cc), cc)
    }
}
