import Glibc
import PoiseConfig
import PoiseFlightCore
import PoiseFusion
import PoiseLoop
import PoiseMath
import PoiseThreads
import Synchronization

/// Poise inside your own Swift program, shaped like Core Motion's `CMMotionManager`: start
/// it with a configuration and a reference frame, then read the newest ``DeviceMotion``
/// whenever you like or iterate ``updates(interval:)``, and stop it. Underneath runs the same
/// real-time loop as `poise run` — sensor, filter, controller, outputs, arming — on a thread
/// of its own; reading the snapshot is lock-free and never disturbs a tick.
///
/// ```swift
/// let manager = MotionManager(configuration: try PoiseConfiguration.load(path: "robot.yaml"),
///                             referenceFrame: .reference(.xMagneticNorthZVertical))
/// try manager.start()
/// for await motion in manager.updates(interval: .milliseconds(100)) {
///     print(motion.attitude.eulerAngles.pitch)
/// }
/// ```
///
/// The manager leaves the process's signals alone: call ``stop()`` (it drives every output
/// safe within a tick and waits for the loop to end).
public final class MotionManager: @unchecked Sendable {
    public let configuration: PoiseConfiguration
    public let referenceFrame: OutputFrame
    let latest = TripleBuffer(initial: TickRecord())
    let signals = StopSignals()
    let state = Mutex<State>(State())
    let declination: Float

    struct State {
        var loop: WorkerThread? = nil
        var result: Result<RunResult, RunError>? = nil
        var started = false
    }

    /// - Parameters:
    ///   - configuration: board, sensor, filter, controller, outputs (`board.kind: sim` runs
    ///     the simulation).
    ///   - referenceFrame: the world frame attitudes are reported in.
    public init(configuration: PoiseConfiguration, referenceFrame: OutputFrame = .axes(.enu)) {
        self.configuration = configuration
        self.referenceFrame = referenceFrame
        declination = Float(configuration.frame.declinationDegrees)
    }

    /// Starts the loop on its own thread. Throws if it is already running.
    public func start() throws(RunError) {
        try state.withLock { (s: inout State) throws(RunError) in
            guard !s.started else { throw RunError("the motion manager is already running") }
            s.started = true
        }
        // Ordinary attributes: the loop raises its own priority and pins itself (RealtimeSetup).
        let loop = WorkerThread(name: "poise-loop")
        let rc = loop.start { [self] in runLoop() }
        guard rc == 0 else {
            throw RunError("cannot start the loop thread (\(String(cString: strerror(rc))))")
        }
        state.withLock { $0.loop = loop }
    }

    func runLoop() {
        var options = RunOptions(signals: signals)
        options.handlesSignals = false
        options.quiet = true
        options.latest = latest
        let result: Result<RunResult, RunError>
        do { result = .success(try LoopRunner.run(configuration, options: options)) } catch {
            result = .failure(error)
        }
        state.withLock { $0.result = result }
    }

    /// Whether the loop is running (started and not yet stopped or failed).
    public var isActive: Bool { state.withLock { $0.started && $0.result == nil } }

    /// The newest motion, or nil before the first sample.
    public var deviceMotion: DeviceMotion? {
        let (record, _) = latest.latest()
        guard record.sampleValid || record.tick > 0, record.accelerometer.x.isFinite else { return nil }
        return Self.motion(record, frame: referenceFrame, declination: declination)
    }

    /// The newest record of the loop itself: arming state, outputs, timing.
    public var latestTick: TickRecord { latest.latest().value }

    /// Motion updates every `interval` until the manager stops or the iteration ends.
    public func updates(interval: Duration) -> AsyncStream<DeviceMotion> {
        AsyncStream { continuation in
            let task = Task {
                while !Task.isCancelled {
                    if let motion = deviceMotion { continuation.yield(motion) }
                    if state.withLock({ $0.result != nil }) { break }
                    try? await Task.sleep(for: interval)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Stops the loop (every output safe within a tick) and waits for it; returns the
    /// run's statistics.
    @discardableResult
    public func stop() throws(RunError) -> RunResult {
        signals.requestStop()
        let loop = state.withLock { s -> WorkerThread? in
            defer { s.loop = nil }
            return s.loop
        }
        loop?.join()
        let result = state.withLock { $0.result }
        switch result {
        case .success(let r): return r
        case .failure(let e): throw e
        case nil: throw RunError("the motion manager was not running")
        }
    }

    static func motion(_ r: TickRecord, frame: OutputFrame, declination: Float) -> DeviceMotion {
        let sample = InertialSample(accelerometer: r.accelerometer, gyroscope: r.gyroscope,
                                    magnetometer: r.magnetometer.x.isFinite ? r.magnetometer : nil)
        let status = FilterStatus(flags: r.filterFlags, gyroscopeBias: r.gyroscope - r.rotationRate)
        var motion = DeviceMotion(attitude: r.attitude, status: status, sample: sample,
                                  northReferenced: frame.isNorthReferenced && r.magnetometer.x.isFinite)
        var transform = OutputFrameTransform(frame, declinationDegrees: declination)
        motion.attitude = transform.attitude(fromENU: r.attitude)
        return motion
    }
}
