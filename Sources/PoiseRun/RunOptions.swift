import PoiseFlightCore
import PoiseLoop
import PoiseReporting
import PoiseTelemetry
import PoiseThreads

/// What a run does besides what the configuration says: `poise run`'s flags, or the
/// library's ``MotionManager``.
public struct RunOptions: @unchecked Sendable {
    /// Stop cleanly after this long, s; nil until a signal (or `stop()`).
    public var duration: Double?
    /// Trace to record (CSV or binary by extension), or nil.
    public var recordPath: String?
    /// Replace an existing file at `recordPath` (a recording refuses one otherwise).
    public var overwrite = false
    /// Record only the sensor (`poise record`): no outputs are opened or driven.
    public var sensorOnly = false
    /// Redraw a one-line status on stderr.
    public var statusLine = false
    /// Print nothing but errors.
    public var quiet = false
    /// MAVLink destination, overriding `telemetry.address`.
    public var telemetry: TelemetryAddress?
    /// Publishes each tick's record to the library's motion manager.
    public var latest: TripleBuffer<TickRecord>?
    /// Stop and reload requests.
    public var signals: StopSignals
    /// Take SIGINT/SIGTERM/SIGHUP on a watcher thread (the command-line tool); a library
    /// user keeps its process's signals and stops the loop with `signals.requestStop()`.
    public var handlesSignals = true
    /// Tell systemd (`$NOTIFY_SOCKET`) when the loop is ready and feed its watchdog while
    /// the ticks advance (`poise run`; not a library user's process).
    public var notifySystemd = false
    /// The config file, for SIGHUP reloads (nil: the built-in default, nothing to reload).
    public var configPath: String?
    /// Where a signed telemetry link keeps its signing timestamps across runs (nil: systemd's
    /// `$STATE_DIRECTORY`, else /var/lib/poise when it exists; ``MAVLinkSigningStore``).
    public var stateDirectory: String?
    /// When the process started, CLOCK_MONOTONIC ns.
    public var processStart: Int64
    /// Run in simulated time for this long, as fast as possible (`poise simulate`): the same
    /// ticks without sleeping, recorder or telemetry threads. Needs `board.kind: sim`.
    public var virtualDuration: Double?

    public init(signals: StopSignals, processStart: Int64 = monotonicNanoseconds()) {
        self.signals = signals
        self.processStart = processStart
    }
}

/// The result of a finished run.
public struct RunResult: Sendable {
    public var statistics: RunStatistics
    public var seconds: Double
    public var rateHz: Double
    /// The signal that stopped the run (SIGINT/SIGTERM), or 0.
    public var signal: Int32
    /// Problems that did not stop the run (a recording that could not be written, …).
    public var problems: [String]
    /// A simulated-time run's report.
    public var report: SimulationReport?
    /// A live run's first failsafe (not its stop), for the summary.
    public var failsafe: FailsafeNote? = nil
    /// A simulated-time run's recorded ticks (from the first with a sample on: ``RecordingStart``).
    public var recordedTicks = 0
}

/// A run that could not start, with what to do about it.
public struct RunError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
