import PoiseControl
import PoiseMath

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
    /// After the last tick: lets every output go at its safe value (GPIO lines released,
    /// PWM left at safe) and says what could not be released.
    mutating func release() -> [OutputError]
    /// Lets the time up to the next tick at `time` pass, after this tick wrote its outputs:
    /// a simulated board moves its world (the plant under the outputs just written) and lets
    /// its chip take its samples. On a real board the physics and the sensor's own
    /// conversions happen in parallel with the processor, so they are not part of a tick;
    /// the loop calls this between ticks, as ArduPilot's SITL steps its physics while the
    /// vehicle code waits for the clock. A real board does nothing.
    mutating func advanceWorld(to time: Double)
    /// The board simulates a world that ``advanceWorld(to:)`` moves (false on real hardware).
    static var simulatesWorld: Bool { get }
    /// How long the host stops before the tick at `time`, s: a stall the simulated board
    /// rehearses (`simulation.faults`); 0 on a real board, whose stalls are real.
    mutating func rehearsedStall(before time: Double) -> Double
}

extension BoardBackend {
    public mutating func advanceWorld(to time: Double) {}
    public static var simulatesWorld: Bool { false }
    public mutating func armStateChanged(_ state: ArmState) {}
    public mutating func prepareForTicks() {}
    public mutating func rehearsedStall(before time: Double) -> Double { 0 }
}
