import PoiseControl
import PoiseMath
import PoiseOutputs
import PoiseSensors

/// What the board's sensor gave one tick.
@frozen
public struct SensorReading: Sendable {
    /// The newest calibrated sample, or `nil` when the read failed or the sensor is starting
    /// or lost.
    public var sample: SensorSample?
    /// When the sample was taken, s on the board's clock since the loop started: the filter's
    /// dt is the difference of these, not the nominal period.
    public var time: Double
    /// Where the driver stands.
    public var state: SensorState
    /// This tick's read failed after the driver's retries (not merely "no new sample yet").
    public var readFailed: Bool
    /// The simulated world's true body-to-ENU attitude at this tick (NaN on a real board).
    public var truth: Quaternion = Quaternion(w: .nan, x: .nan, y: .nan, z: .nan)
    /// What the driver has to report this tick (saturation, failed reads, a loss), as plain
    /// data: the loop's reporter turns it into log lines off the real-time thread.
    public var notices = SensorNotices()

    /// A sample came this tick (without `!=` on the sample: comparing samples is not needed).
    @inlinable
    public var hasSample: Bool {
        switch sample {
        case .some: true
        case .none: false
        }
    }

    /// The driver declared the sensor lost (a switch: `==` on a String-backed enum compares
    /// strings, which the checked tick may not do).
    @inlinable
    public var isLost: Bool {
        switch state {
        case .lost: true
        case .starting, .running: false
        }
    }

    @inlinable
    public init(sample: SensorSample?, time: Double, state: SensorState, readFailed: Bool = false) {
        self.sample = sample
        self.time = time
        self.state = state
        self.readFailed = readFailed
    }
}

/// One board as the loop sees it, in the manner of ArduPilot's HAL: the same loop runs on a
/// real board (`LinuxBoard`: I²C, libgpiod, sysfs PWM) and on the simulated one
/// (`SimulatedBoard`: the register-level chips coupled to a plant model).
///
/// The loop uses boards generically (specialised, never as an existential); `read` and
/// `write` run in the tick and must not allocate or lock.
public protocol BoardBackend: ~Copyable {
    /// Reads the sensor in the tick that started at `now` (s since the loop started, on the
    /// loop's clock). A simulated board whose world is behind `now` (a skipped deadline, the
    /// first tick) advances it first.
    mutating func read(now: Double) -> SensorReading
    /// Writes the physical value of every output channel (only what changed reaches the
    /// hardware); the first channel that failed, if any (the loop then goes safe).
    mutating func write(_ commands: ChannelCommands, dt: Double) -> OutputFault?
    /// Drives every output to its safe value now.
    mutating func driveSafe() -> OutputFault?
    /// Told when the arming state changes (the simulated world lets go of its plant on arming).
    mutating func armStateChanged(_ state: ArmState)
    /// Called once before the first tick: make every buffer the ticks will write uniquely
    /// owned, so no copy-on-write happens (and allocates) in a tick.
    mutating func prepareForTicks()
    /// Counters for the statistics: failed sensor reads since start.
    var sensorErrors: Int { get }
    /// Lets the time up to the next tick at `time` pass, after this tick wrote its outputs:
    /// a simulated board moves its world (the plant under the outputs just written) and lets
    /// its chip take its samples. On a real board the physics and the sensor's own
    /// conversions happen in parallel with the processor, so they are not part of a tick;
    /// the loop calls this between ticks, as ArduPilot's SITL steps its physics while the
    /// vehicle code waits for the clock. A real board does nothing.
    mutating func advanceWorld(to time: Double)
    /// The board simulates a world that ``advanceWorld(to:)`` moves (false on real hardware).
    static var simulatesWorld: Bool { get }
}

extension BoardBackend {
    public mutating func advanceWorld(to time: Double) {}
    public static var simulatesWorld: Bool { false }
    public mutating func armStateChanged(_ state: ArmState) {}
    public mutating func prepareForTicks() {}
}
