import PoiseControl
import PoiseFlightCore
import PoiseHAL
import PoiseThreads

/// The arming switch on the simulated board: a GPIO input whose level follows a script
/// (off, on at `onTime`, off again at `offTime`), debounced as the libgpiod watcher debounces
/// the real line, and handed to the tick through the same ``ArmSwitchState``. Set between
/// ticks with the world, so a simulated run stays deterministic.
public struct SimulatedArmSwitch: Sendable {
    /// Times the line changes level, s, rising; it is off before the first.
    public var edges: [Double]
    public let state: ArmSwitchState
    var debouncer: SwitchDebouncer

    /// - Parameters:
    ///   - edges: when the switch is flipped, s (off → on, on → off, …).
    ///   - debounce: s.
    public init(edges: [Double], debounce: Double, state: ArmSwitchState) {
        self.edges = edges.sorted()
        self.state = state
        debouncer = SwitchDebouncer(holdTime: debounce, initial: false, at: -.infinity)
        state.set(false)
    }

    /// The line's raw level at `time`.
    public func level(at time: Double) -> Bool {
        var on = false
        for edge in edges where edge <= time { on.toggle() }
        return on
    }

    /// Moves the line to `time` and hands its debounced level over.
    public mutating func advance(to time: Double) {
        state.set(debouncer.update(level(at: time), at: time))
    }
}
