import PoiseFusion
import PoiseReplay
import PoiseTelemetry
import PoiseTick

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
    let tuning: Unmanaged<SettingsMailbox<CoreTuning>>?
    let ring: Unmanaged<TickRecordRing>?
    let telemetry: Unmanaged<TelemetrySender>?
    let latest: Unmanaged<TripleBuffer<TickRecord>>?
    /// Quadrotor setpoints.
    public var setpoints: SetpointSchedule
    /// Strong references that keep the objects above alive as long as the links (never
    /// touched by the tick).
    let keepAlive: [AnyObject]

    /// - Parameters:
    ///   - ring: the recorder/status ring (``TickReporter``).
    ///   - latest: the newest record, for the library's ``MotionManager``.
    public init(signals: StopSignals, tuning: SettingsMailbox<CoreTuning>? = nil, ring: TickRecordRing? = nil,
                telemetry: TelemetrySender? = nil, latest: TripleBuffer<TickRecord>? = nil,
                setpoints: SetpointSchedule = SetpointSchedule(throttle: 0)) {
        self.signals = .passUnretained(signals)
        self.tuning = tuning.map { .passUnretained($0) }
        self.ring = ring.map { .passUnretained($0) }
        self.telemetry = telemetry.map { .passUnretained($0) }
        self.latest = latest.map { .passUnretained($0) }
        self.setpoints = setpoints
        keepAlive = [signals as AnyObject?, tuning, ring, telemetry, latest].compactMap { $0 }
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

    public init(board: Board, core: FlightCore<Filter>, links: LoopLinks, settings: LoopSettings) {
        self.board = board
        self.core = core
        self.links = links
        self.settings = settings
    }

    /// Runs until stopped. `processStart` (CLOCK_MONOTONIC ns) measures start-to-first-tick.
    public mutating func run(processStart: Int64, onStarted: ([String]) -> Void = { _ in }) {
        board.prepareForTicks()
        warnings = settings.realtime.apply()
        onStarted(warnings)
        let period = Int64((1e9 / settings.rateHz).rounded())
        let start = monotonicNanoseconds()
        var scheduler = TickScheduler(periodNanoseconds: period, start: start - period)
        // --duration is time on the loop's clock, not a tick count: deadlines skipped after an
        // overrun do not stretch the run. The last tick is the one scheduled before the end.
        let lastTickTime = settings.duration.map { $0 - 1.5 / settings.rateHz } ?? .infinity
        if lastTickTime.isFinite {
            // The stopping tick's deadline, the first at or after lastTickTime: never skipped.
            scheduler.lastDeadline = start + Int64((lastTickTime * settings.rateHz).rounded(.up)) * period
        }
        statistics.startToFirstTick = Double(start - processStart) * 1e-9
        var overrunStreak = 0
        var outputFaulted = false
        let counter = AllocationCounter.find()
        var allocationsAtFirstTick: Int64 = 0
        var startedUp = false
        while true {
            let lateness = scheduler.waitForNextTick()
            let wake = monotonicNanoseconds()
            let now = Double(scheduler.deadline - start) * 1e-9
            let stop = links.stopRequested || now >= lastTickTime
            let finished = step(now: now, stop: stop, overrunStreak: overrunStreak, outputFaulted: &outputFaulted,
                                lateness: lateness, wake: wake, period: period)
            let end = monotonicNanoseconds()
            statistics.compute.record(end - wake)
            statistics.io.record(lastIONanoseconds)
            statistics.work.record(end - wake - lastIONanoseconds)
            statistics.lateness.record(lateness)
            statistics.ticks += 1
            if scheduler.finishTick(at: end) {
                statistics.overruns += 1
                overrunStreak += 1
            } else {
                overrunStreak = 0
            }
            // Start-up ends with the first sample: the driver has reset and configured the chip
            // (which logs, and may allocate); from here on a tick must not allocate.
            if !startedUp, lastRecord.sampleValid, let counter {
                allocationsAtFirstTick = counter.read()
                startedUp = true
            }
            statistics.seconds = now + 1 / settings.rateHz
            if finished { break }
            // Between ticks: the simulated world moves on to the next deadline (a real board's
            // physics needs no processor time).
            if Board.simulatesWorld {
                let next = Double(scheduler.deadline + period - start) * 1e-9
                let worldStart = monotonicNanoseconds()
                board.advanceWorld(to: next)
                statistics.world.record(monotonicNanoseconds() - worldStart)
            }
        }
        if let counter, startedUp { statistics.loopThreadAllocations = Int(counter.read() - allocationsAtFirstTick) }
        statistics.skippedDeadlines = scheduler.skippedDeadlines
        if board.driveSafe() != nil { statistics.outputFaults += 1 }
        statistics.sensorErrors = board.sensorErrors
        statistics.peakRSSBytes = peakResidentSetBytes()
    }

    /// Runs the same ticks in simulated time, as fast as the machine goes: no sleeping, no
    /// real-time set-up, `each` sees every tick's record. `poise simulate` and the
    /// closed-loop tests use it; with a simulated board the result depends only on the
    /// configuration (deterministic).
    public mutating func runVirtual(duration: Double, stopAt: Double? = nil, each: (inout Self, TickRecord) -> Void = { _, _ in }) {
        let period = Int64((1e9 / settings.rateHz).rounded())
        let ticks = Int((duration * settings.rateHz).rounded())
        var outputFaulted = false
        for index in 0..<ticks {
            let now = Double(index) / settings.rateHz
            let stop = index == ticks - 1 || stopAt.map { now >= $0 } ?? false
            let finished = step(now: now, stop: stop, overrunStreak: 0, outputFaulted: &outputFaulted,
                                lateness: 0, wake: 0, period: period)
            statistics.ticks += 1
            each(&self, lastRecord)
            if finished { break }
            board.advanceWorld(to: Double(index + 1) / settings.rateHz)
        }
        if board.driveSafe() != nil { statistics.outputFaults += 1 }
        statistics.sensorErrors = board.sensorErrors
    }

    /// One tick; true when it was the stopping tick.
    mutating func step(now: Double, stop: Bool, overrunStreak: Int, outputFaulted: inout Bool,
                       lateness: Int64, wake: Int64, period: Int64) -> Bool {
        if let mailbox = links.tuning, let tuning = mailbox._withUnsafeGuaranteedRef({ $0.takeTuning() }) {
            _ = core.apply(tuning)
        }
        var status = LoopStatus()
        status.overrunStreak = overrunStreak
        status.stopRequested = stop
        status.unexpectedError = outputFaulted
        status.quadSetpoint = links.setpoints.value(at: now)
        // The board's I/O (sensor transfer, output writes; on the simulated board the chip's
        // transfer and the simulated output drivers) is timed apart from the tick's own work
        // when the loop is timed at all.
        let readStart = wake == 0 ? 0 : monotonicNanoseconds()
        let reading = board.read(now: now)
        let readEnd = wake == 0 ? 0 : monotonicNanoseconds()
        let out = core.tick(reading, loop: status)
        if case .some = out.event { board.armStateChanged(out.state) }
        let writeStart = wake == 0 ? 0 : monotonicNanoseconds()
        let written = board.write(out.commands, dt: Double(period) * 1e-9)
        lastIONanoseconds = (readEnd - readStart) + (wake == 0 ? 0 : monotonicNanoseconds() - writeStart)
        if case .some = written {
            // Safe within this tick, not the next: the failed write may have left a channel driven.
            statistics.outputFaults += 1
            outputFaulted = true
            _ = board.driveSafe()
        }
        var record = lastRecord
        record.tick = statistics.ticks
        record.time = reading.time
        record.sampleValid = reading.hasSample
        record.readFailed = reading.readFailed
        switch reading.state {
        case .starting: record.sensorState = 0
        case .running: record.sensorState = 1
        case .lost: record.sensorState = 2
        }
        record.overrunStreak = UInt16(min(overrunStreak, Int(UInt16.max)))
        record.stopRequested = stop
        record.outputFaulted = status.unexpectedError
        record.tickTime = now
        if let sample = reading.sample {
            record.accelerometer = sample.accelerometer
            record.gyroscope = sample.gyroscope
            record.magnetometer = sample.magnetometer ?? SIMD3(repeating: .nan)
        } else {
            record.accelerometer = SIMD3(repeating: .nan)
            record.gyroscope = SIMD3(repeating: .nan)
            record.magnetometer = SIMD3(repeating: .nan)
        }
        record.attitude = core.attitude
        record.rotationRate = core.rotationRate
        record.filterFlags = core.filter.status.flags
        record.armState = out.state.rawValue
        record.eventReason = out.event?.reason.rawValue ?? 0
        record.truth = reading.truth
        record.sensorNotices = reading.notices
        record.signals = core.signals
        record.outputs = out.commands
        record.latenessNanoseconds = lateness
        record.computeNanoseconds = wake == 0 ? 0 : monotonicNanoseconds() - wake
        if let ring = links.ring, !ring._withUnsafeGuaranteedRef({ $0.offer(record) }) { statistics.droppedRecords += 1 }
        if let telemetry = links.telemetry { _ = telemetry._withUnsafeGuaranteedRef { $0.offer(record) } }
        if let latest = links.latest { latest._withUnsafeGuaranteedRef { $0.publishRecord(record) } }
        lastRecord = record
        return stop
    }
}
