import Synchronization

/// The arming switch's debounced level, handed from the thread that reads the switch (a
/// libgpiod edge-event watcher, or the simulated line) to the tick: one relaxed atomic load
/// per tick, never a wait.
public final class ArmSwitchState: Sendable {
    let on = Atomic<Bool>(false)

    public init() {}

    /// The switch's debounced level (the reader's side).
    public func set(_ isOn: Bool) { on.store(isOn, ordering: .relaxed) }

    /// The switch's last handed-over level (the tick's side).
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public func read() -> Bool { on.load(ordering: .relaxed) }
}
