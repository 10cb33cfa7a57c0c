#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#else
import Glibc
#endif
import PoiseControl
import PoiseDeviceSettings
import PoiseFlightCore
import PoiseFusion
import PoiseLoop
import PoiseMath
import PoiseReplayCore
import PoiseSensors
import PoiseThreads
import PoiseTraces
import Synchronization

/// The non-real-time side of the loop: a thread that drains the tick ring, writes the
/// recording (flushed every `flushInterval`), prints each arming transition once, and shows
/// the loop a few times a second — a status line redrawn in place on a terminal, a plain
/// log line every `logInterval` otherwise.
public final class TickReporter: @unchecked Sendable {
    public struct Settings: Sendable {
        public var flushInterval: Double = 0.25
        /// How often the recording is put on the disk (fdatasync), s; 0: only at the end.
        public var syncInterval: Double = 1
        /// The recording's name, for messages.
        public var recordingName = ""
        public var logInterval: Double = 10
        /// Redraw a one-line status on stderr (a terminal).
        public var statusLine: Bool = false
        /// Print each arming transition and each change of the filter's convergence (false:
        /// `--quiet`, which prints only errors, warnings and results).
        public var transitions: Bool = true
        public var statusInterval: Double = 0.25
        /// Channel names, for the status line.
        public var channelNames: [String] = []
        public var channelIsPulse: [Bool] = []
        /// The sensor's settings, to word the driver's notices; nil prints them by kind only.
        public var sensor: MPU9250Settings? = nil
        /// The sensor's bus device, to name it in a failed transfer's words.
        public var sensorBus = "?"
        /// The safety limits, to word the arming transitions with their values.
        public var safety: SafetySettings? = nil
        /// systemd's notification socket: `READY=1` at the first record, `WATCHDOG=1` while
        /// the tick counter advances.
        public var notifier: ServiceNotifier? = nil
        /// The program's name, before each line it prints (`poise: …`, `poise-board: …`).
        public var programName = "poise"
        public init() {}
    }

    public let ring: TickRecordRing
    let settings: Settings
    var writer: TraceWriter?
    let columns: RecordingColumns?
    let done = Atomic<Bool>(false)
    let worker = WorkerThread(name: "poise-reporter")
    /// The first write error of the recording, if any.
    public private(set) var recordingError: String?
    /// The run's first failsafe (not its stop), for the summary.
    public private(set) var failsafe: FailsafeNote?
    public private(set) var recordsWritten = 0
    var recordingStart = RecordingStart()
    var lastFlush = 0.0, lastSync = 0.0, lastStatus = -1.0, lastLog = 0.0
    var window = LatencyHistogram(), computeWindow = LatencyHistogram()
    var latest = TickRecord()
    var ready = false
    /// The tick the watchdog was last fed at, and when (CLOCK_MONOTONIC s).
    var fedTick: UInt64 = 0, fedAt = 0.0

    public init(ring: TickRecordRing, settings: Settings, recording: consuming TraceWriter?, columns: RecordingColumns?) {
        self.ring = ring
        self.settings = settings
        writer = recording
        self.columns = columns
    }

    public func start() {
        worker.start { [self] in run() }
    }

    /// Drains what is left, closes the recording and joins the thread.
    public func finish() throws(TraceError) {
        done.store(true, ordering: .releasing)
        worker.join()
        if settings.statusLine { StatusLine.end() }
        if var w = writer.take() {
            do { try w.close() } catch {
                // A recording that already stopped said so once; it keeps what reached the disk.
                // One that fails only now (its last flush) says the same, once, at the end.
                if recordingError == nil {
                    recordingError = "\(settings.recordingName): recording stopped at \(format(latest.time)) s: "
                        + "\(error.message); the file keeps every whole record written before"
                }
            }
        }
    }

    func run() {
        while true {
            let finishing = done.load(ordering: .acquiring)
            var any = false
            while let record = ring.poll() {
                handle(record)
                any = true
            }
            if finishing && !any { break }
            notifySystemd()
            if !any { usleep(2000) }
        }
        if ready { settings.notifier?.send("STOPPING=1") }
    }

    /// Ready once the first tick's record arrives; the watchdog is fed only when ticks came
    /// since the last feed, so it starves when the loop stops ticking.
    func notifySystemd() {
        guard let notifier = settings.notifier, recordsSeen > 0 else { return }
        if !ready {
            ready = true
            notifier.send("READY=1")
        }
        guard let interval = notifier.watchdogInterval else { return }
        let now = Double(monotonicNanoseconds()) * 1e-9
        if now - fedAt >= interval, latest.tick != fedTick || fedAt == 0 {
            // (fedAt == 0: the first feed, at the first record.)
            notifier.send("WATCHDOG=1")
            fedTick = latest.tick
            fedAt = now
        }
    }

    var recordsSeen = 0
    /// The previous record's estimate was established (`notConverged` clear).
    var wasConverged = true

    func handle(_ r: TickRecord) {
        latest = r
        recordsSeen += 1
        if r.stallNanoseconds > 0 {
            let ms = (Double(r.stallNanoseconds) / 1e5).rounded() / 10
            printToStandardError(settings.programName + ": \(format(r.tickTime)) s: the loop stalled for \(ms) ms (longer than safety.stall_ms); every output safe in this tick, the estimate is stale\n")
        }
        if failsafe == nil { failsafe = FailsafeNote.first(r, safety: settings.safety) }
        if r.armState == .armed, r.eventReason != .none, failsafe != nil { failsafe!.rearmed = true }
        window.record(r.latenessNanoseconds)
        computeWindow.record(r.computeNanoseconds)
        if r.eventReason != .none, settings.transitions {
            let reason = r.eventReason, state = r.armState
            let words = settings.safety.map { TransitionMessage(safety: $0).text(state: state, reason: reason, attitude: r.attitude) }
                ?? "\(state.name) — \(reason.text)"
            printToStandardError(settings.programName + ": \(format(r.time)) s: \(words)\n")
        }
        let converged = !r.filterFlags.contains(.notConverged)
        if converged != wasConverged {
            if settings.transitions {
                printToStandardError(settings.programName + ": \(format(r.time)) s: \(ConvergenceMessage.text(r, converged: converged))\n")
            }
            wasConverged = converged
        }
        if !r.sensorNotices.isEmpty {
            let messages = (settings.sensor ?? MPU9250Settings()).messages(for: r.sensorNotices, bus: settings.sensorBus)
            // As the driver's logger would show them: information only without `--quiet`.
            for message in messages where message.shown(quiet: !settings.transitions) {
                printToStandardError(settings.programName + ": \(format(r.time)) s: sensor: \(message.text)\n")
            }
        }
        if let columns, recordingError == nil {
            // From the first tick with a sample on (the driver's start-up ticks are left out).
            recordingStart.admit(r) { record in
                columns.write(record, to: &writer!)
                recordsWritten += 1
            }
            if r.time - lastFlush >= settings.flushInterval {
                writer!.flush()
                lastFlush = r.time
                var error = writeError()
                if error == 0, settings.syncInterval > 0, r.time - lastSync >= settings.syncInterval {
                    lastSync = r.time
                    error = writer!.sync()
                }
                if error != 0 {
                    // One message; the file keeps every whole record that reached it.
                    recordingError = "\(settings.recordingName): recording stopped at \(format(r.time)) s: "
                        + "\(String(cString: strerror(error))); the file keeps every whole record written before"
                    printToStandardError(settings.programName + ": \(recordingError!); the loop goes on without it\n")
                }
            }
        }
        if settings.statusLine, r.time - lastStatus >= settings.statusInterval {
            lastStatus = r.time
            StatusLine.draw(statusText(r))
        } else if !settings.statusLine, settings.logInterval > 0, r.time - lastLog >= settings.logInterval {
            lastLog = r.time
            printToStandardError(settings.programName + ": " + statusText(r) + "\n")
            window = LatencyHistogram()
            computeWindow = LatencyHistogram()
        }
    }

    func writeError() -> Int32 {
        switch writer {
        case .some(let w): return w.writeError
        case .none: return 0
        }
    }

    func statusText(_ r: TickRecord) -> String {
        let e = EulerAngles(r.attitude)
        var state = r.armState.name.description
        if r.armState != .armed && r.filterFlags.contains(.notConverged) { state += " (waiting — filter not converged)" }
        var text = "t \(format(r.time)) s  \(state)  pitch \(Self.angle(e.pitch))  roll \(Self.angle(e.roll))  yaw \(Self.angle(e.yaw))"
        for index in 0..<min(settings.channelNames.count, r.outputs.count) {
            let v = r.outputs[index]
            text += "  \(settings.channelNames[index]) " + (settings.channelIsPulse[index] ? "\(v / 1000)µs" : "\(v)")
        }
        let late = window.value(atQuantile: 0.99), comp = computeWindow.value(atQuantile: 0.99)
        text += "  late p99 \(late / 1000)µs  compute p99 \(comp / 1000)µs  dropped \(ring.dropped)"
        return text
    }

    func format(_ t: Double) -> String { String((t * 10).rounded() / 10) }
    static func angle(_ radians: Float) -> String {
        // `+ 0` turns a -0.0 (a small negative angle rounded) into 0.0, which reads `+0.0°`.
        let d = (Double(radians) * 180 / .pi * 10).rounded() / 10 + 0
        return (d >= 0 ? "+" : "") + String(d) + "°"
    }
}
