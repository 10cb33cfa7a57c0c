import PoiseControl
import PoiseFlightCore
import PoiseFusion
import PoiseSchedules
import PoiseTelemetry
import PoiseThreads

/// How the loop runs.
public struct LoopSettings: Sendable {
    /// Ticks per second.
    public var rateHz: Double
    /// Stop cleanly after this long, s; nil runs until a signal.
    public var duration: Double?
    public var realtime: RealtimeSetup
    /// Ticks per second of the published snapshot for the library API (every tick when 0).
    public init(rateHz: Double, duration: Double? = nil, realtime: RealtimeSetup = RealtimeSetup(priority: 0, cpu: -1, lockMemory: false)) {
        self.rateHz = rateHz
        self.duration = duration
        self.realtime = realtime
    }
}

/// What the loop talks to besides the board: stop and reload requests coming in, records
/// going out. Every member is lock-free on the tick's side.
///
/// Held as `Unmanaged` and used through `_withUnsafeGuaranteedRef`: the tick must not retain
/// or release (reference counting is atomic and may lock); whoever builds the links keeps
/// the objects alive for the whole run.
public struct LoopLinks: @unchecked Sendable {
    let signals: Unmanaged<StopSignals>
    let tuning: Unmanaged<SettingsMailbox<ReloadableSettings>>?
    let ring: Unmanaged<TickRecordRing>?
    let telemetry: Unmanaged<TelemetrySender>?
    let latest: Unmanaged<TripleBuffer<TickRecord>>?
    /// The arming switch's debounced level, when `safety.arm_source` is `switch`.
    let armSwitch: Unmanaged<ArmSwitchState>?
    /// Quadrotor setpoints.
    public var setpoints: SetpointSchedule
    /// A pilot's live setpoints and arm/disarm requests (the ground station, a gamepad):
    /// fresh ones override `setpoints`; once some came, none for `pilotTimeout` s loses them.
    let pilot: Unmanaged<ManualControlMailbox>?
    public var pilotTimeout: Double = 0.5
    public var pilotMapping = PilotMapping()
    /// The balancing robot's drive script.
    public var drive: DriveSchedule
    /// The wheel encoders' counts, when `controller.balance.encoders` are configured.
    let encoders: Unmanaged<WheelEncoderState>?
    /// Strong references that keep the objects above alive as long as the links (never
    /// touched by the tick).
    let keepAlive: [AnyObject]

    /// - Parameters:
    ///   - ring: the recorder/status ring (``TickReporter``).
    ///   - latest: the newest record, for the library's ``MotionManager``.
    public init(signals: StopSignals, tuning: SettingsMailbox<ReloadableSettings>? = nil, ring: TickRecordRing? = nil,
                telemetry: TelemetrySender? = nil, latest: TripleBuffer<TickRecord>? = nil,
                armSwitch: ArmSwitchState? = nil, setpoints: SetpointSchedule = SetpointSchedule(throttle: 0),
                pilot: ManualControlMailbox? = nil, drive: DriveSchedule = DriveSchedule(), encoders: WheelEncoderState? = nil) {
        self.signals = .passUnretained(signals)
        self.tuning = tuning.map { .passUnretained($0) }
        self.ring = ring.map { .passUnretained($0) }
        self.telemetry = telemetry.map { .passUnretained($0) }
        self.latest = latest.map { .passUnretained($0) }
        self.armSwitch = armSwitch.map { .passUnretained($0) }
        self.setpoints = setpoints
        self.pilot = pilot.map { .passUnretained($0) }
        self.drive = drive
        self.encoders = encoders.map { .passUnretained($0) }
        keepAlive = [signals as AnyObject?, tuning, ring, telemetry, latest, armSwitch, pilot, encoders].compactMap { $0 }
    }

    var stopRequested: Bool { signals._withUnsafeGuaranteedRef { $0.stopRequested } }
}

/// The fixed-rate loop: wait for the deadline → read the sensor → tick (filter, controller,
/// supervisor, mapping) → write the outputs → hand a record to the rings. Runs on the
/// calling thread until a stop; the last tick sees the stop, goes failsafe and writes every
/// output's safe value, then the board is driven safe once more.
public struct LiveLoop<Board: BoardBackend, Filter: AttitudeFilter> {
    public var board: Board
    public var core: FlightCore<Filter>
    public var links: LoopLinks
    public let settings: LoopSettings
    public private(set) var statistics = RunStatistics()
    /// The last tick's record (reused: building one from scratch each tick is not needed).
    public private(set) var lastRecord = TickRecord()
    /// Time the last tick spent in the board's read and write, ns (0 in virtual runs).
    var lastIONanoseconds: Int64 = 0
    /// Warnings from the real-time set-up (printed by the caller).
    public private(set) var warnings: [String] = []
    /// When the process started (CLOCK_MONOTONIC ns), for the start-to-first-tick figure.
    var processStart: Int64?
    /// The pilot's setpoints as the tick last saw them.
    public private(set) var pilot = PilotState()
    /// The balancing robot's drive setpoint from the pilot's sticks this tick (zero when none
    /// are fresh: brake to a stop). To be handed to FlightCore's drive setpoint once the
    /// balance controller follows one.
    public private(set) var pilotDrive = DriveSetpoint()

    public init(board: Board, core: FlightCore<Filter>, links: LoopLinks, settings: LoopSettings) {
        self.board = board
        self.core = core
        self.links = links
        self.settings = settings
    }

    /// Runs on the board's real clock until a stop request or the end of `settings.duration`.
    /// `processStart` (CLOCK_MONOTONIC ns) measures start-to-first-tick.
    public mutating func run(processStart: Int64, onStarted: ([String]) -> Void = { _ in }) {
        self.processStart = processStart
        run(clock: RealTimeClock(rateHz: settings.rateHz, duration: settings.duration), onStarted: onStarted)
    }

    /// Runs `duration` s of ticks in simulated time, as fast as the machine goes: no
    /// sleeping, no real-time set-up. With a simulated board the result depends only on the
    /// configuration (deterministic).
    public mutating func runVirtual(duration: Double, each: (inout Self, TickRecord) -> Void = { _, _ in }) {
        run(clock: VirtualClock(rateHz: settings.rateHz, duration: duration), each: each)
    }

    /// The loop, on either clock: wait for the tick → read → tick → write → hand the record
    /// on; between ticks a simulated world moves to the next tick's time. `each` sees every
    /// tick's record. The stopping tick (a stop request, or the clock's stop time) disarms
    /// (reason `stop requested`); the board is then driven safe once more.
    public mutating func run<Clock: LoopClock>(clock: Clock, onStarted: ([String]) -> Void = { _ in },
                                               each: (inout Self, TickRecord) -> Void = { _, _ in }) {
        var clock = clock
        board.prepareForTicks()
        if Clock.isRealTime { warnings = settings.realtime.apply() }
        onStarted(warnings)
        let period = Int64((1e9 / settings.rateHz).rounded())
        clock.start()
        if Clock.isRealTime, let processStart {
            statistics.startToFirstTick = Double(clock.timestamp() - processStart) * 1e-9
        }
        var overrunStreak = 0
        var outputFaulted = false
        let counter = Clock.isRealTime ? AllocationCounter.find() : nil
        var allocationsAtFirstTick: Int64 = 0
        var startedUp = false
        var sampled = false
        var previousWake = Int64.min
        while true {
            let (now, lateness) = clock.waitForNextTick()
            let wake = clock.timestamp()
            let stop = links.stopRequested || now >= clock.stopTime
            // A stall: this tick woke too late after its deadline, or too long after the last
            // tick woke (a stop in the middle of a tick, whose deadlines were then skipped).
            // Not before the first sample: start-up resets and configures the chip.
            let sinceLast = previousWake == .min ? 0 : wake - previousWake - period
            previousWake = wake
            let late = max(lateness, sinceLast)
            let stall = sampled && late > Int64(core.supervisor.settings.stallTime * 1e9) ? late : 0
            let finished = checkedOrPlainStep(now: now, stop: stop, overrunStreak: overrunStreak, outputFaulted: &outputFaulted,
                                              lateness: lateness, wake: wake, period: period, stall: stall, clock: clock)
            sampled = sampled || lastRecord.sampleValid
            if stall > 0 {
                statistics.stalls += 1
                statistics.longestStallNanoseconds = max(statistics.longestStallNanoseconds, stall)
            }
            statistics.ticks += 1
            if Clock.isRealTime {
                let end = clock.timestamp()
                statistics.compute.record(end - wake)
                statistics.io.record(lastIONanoseconds)
                statistics.work.record(end - wake - lastIONanoseconds)
                statistics.lateness.record(lateness)
                if clock.finishTick(at: end) {
                    statistics.overruns += 1
                    overrunStreak += 1
                } else {
                    overrunStreak = 0
                }
                // Start-up ends with the first sample: the driver has reset and configured the
                // chip (which logs, and may allocate); from here on a tick must not allocate.
                if !startedUp, lastRecord.sampleValid, let counter {
                    allocationsAtFirstTick = counter.read()
                    startedUp = true
                }
                statistics.seconds = now + 1 / settings.rateHz
            }
            each(&self, lastRecord)
            if finished { break }
            // Between ticks: the simulated world moves on to the next tick's time (a real
            // board's physics needs no processor time).
            if Board.simulatesWorld {
                // A rehearsed stall (`simulation.faults`): the host stops before the next tick.
                let stall = board.rehearsedStall(before: clock.nextTickTime)
                if stall > 0 { clock.stall(seconds: stall) }
                let worldStart = clock.timestamp()
                board.advanceWorld(to: clock.nextTickTime)
                if Clock.isRealTime { statistics.world.record(clock.timestamp() - worldStart) }
            }
        }
        if let counter, startedUp { statistics.loopThreadAllocations = Int(counter.read() - allocationsAtFirstTick) }
        statistics.skippedDeadlines = clock.skippedDeadlines
        if board.driveSafe() != nil { statistics.outputFaults += 1 }
        statistics.sensorErrors = board.sensorErrors
        if Clock.isRealTime { statistics.peakRSSBytes = peakResidentSetBytes() }
    }

    /// Takes the pilot's newest sticks and arm request: fresh sticks set this tick's quad
    /// setpoint and drive setpoint; sticks lost after some came brake the robot to a stop
    /// (a zero drive setpoint) and fail the quad safe (``SafetyReason/setpointLost``).
    /// `origin`: the clock's origin (CLOCK_MONOTONIC ns), as the stamps are CLOCK_MONOTONIC s.
    mutating func followPilot(_ mailbox: Unmanaged<ManualControlMailbox>, now: Double, origin: Int64, status: inout LoopStatus) {
        if let (control, stamp) = mailbox._withUnsafeGuaranteedRef({ $0.latest() }), stamp != pilot.stamp {
            pilot.control = control
            pilot.stamp = stamp
            pilot.arrival = now
            pilot.receivedTime = stamp - Double(origin) * 1e-9
            pilot.received = true
        }
        status.armCommand = ArmCommand(rawValue: mailbox._withUnsafeGuaranteedRef { $0.takeArmRequest() }.rawValue) ?? .none
        guard pilot.received else { return }
        if now - pilot.arrival <= links.pilotTimeout {
            status.quadSetpoint = links.pilotMapping.quad(pilot.control, base: status.quadSetpoint)
            pilotDrive = links.pilotMapping.drive(pilot.control)
            status.driveSetpoint = pilotDrive
        } else {
            // The balance controller ramps a zero setpoint down at its braking limit.
            pilotDrive = DriveSetpoint()
            status.driveSetpoint = pilotDrive
            if case .quad = core.controller { status.setpointLost = true }
        }
    }

    /// One tick; true when it was the stopping tick.
    mutating func step<Clock: LoopClock>(now: Double, stop: Bool, overrunStreak: Int, outputFaulted: inout Bool,
                                         lateness: Int64, wake: Int64, period: Int64, stall: Int64,
                                         clock: Clock) -> Bool {
        if let mailbox = links.tuning, let tuning = mailbox._withUnsafeGuaranteedRef({ $0.takeTuning() }) {
            _ = core.apply(tuning)
        }
        var status = LoopStatus()
        status.overrunStreak = overrunStreak
        status.stopRequested = stop
        status.unexpectedError = outputFaulted
        status.quadSetpoint = links.setpoints.value(at: now)
        status.driveSetpoint = links.drive.value(at: now)
        if let encoders = links.encoders { status.wheelCounts = encoders._withUnsafeGuaranteedRef { $0.read() } }
        status.stallNanoseconds = stall
        if let armSwitch = links.armSwitch { status.armSwitch = armSwitch._withUnsafeGuaranteedRef { $0.read() } }
        if let mailbox = links.pilot { followPilot(mailbox, now: now, origin: clock.origin, status: &status) }
        // The board's I/O (sensor transfer, output writes; on the simulated board the chip's
        // transfer and the simulated output drivers) is timed apart from the tick's own work.
        let readStart = clock.timestamp()
        let reading = board.read(now: now)
        let readEnd = clock.timestamp()
        let out = core.tick(reading, loop: status)
        if case .some = out.event { board.armStateChanged(out.state) }
        let writeStart = clock.timestamp()
        let written = board.write(out.commands, dt: Double(period) * 1e-9)
        lastIONanoseconds = (readEnd - readStart) + (clock.timestamp() - writeStart)
        if case .some = written {
            // Safe within this tick, not the next: the failed write may have left a channel driven.
            statistics.outputFaults += 1
            outputFaulted = true
            _ = board.driveSafe()
        }
        var record = lastRecord
        record.set(tick: statistics.ticks, tickTime: now, reading: reading, loop: status, core: core, output: out)
        record.latenessNanoseconds = lateness
        record.pilotReceivedTime = pilot.receivedTime
        record.computeNanoseconds = clock.timestamp() - wake
        if let ring = links.ring, !ring._withUnsafeGuaranteedRef({ $0.offer(record) }) { statistics.droppedRecords += 1 }
        if let telemetry = links.telemetry { _ = telemetry._withUnsafeGuaranteedRef { $0.offer(record) } }
        if let latest = links.latest { latest._withUnsafeGuaranteedRef { $0.publishRecord(record) } }
        lastRecord = record
        return stop
    }
}
