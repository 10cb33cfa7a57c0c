extension ArmingSupervisor {
    /// A requested stop (SIGINT, SIGTERM, the end of `--duration`, the library's `stop()`):
    /// a disarm with its own reason, not a failsafe. The outputs go safe in this tick, as in
    /// every state but `armed`; the estimate keeps its convergence (nothing happened to it).
    /// Stopped, the supervisor stays so for the run. A latched failsafe (an unexpected error)
    /// stays what it is: that run failed, and the stop changes nothing there.
    ///
    /// Returns the transition this call made (nil: none); ``lastEvent`` is the last
    /// `update`'s and is not the tick's to report after a stop.
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func stop(at time: Double) -> SafetyEvent? {
        if state == .failsafe && reason.latches { return nil }
        if state == .disarmed && reason == .stopRequested { return nil }
        transition(to: .disarmed, .stopRequested, at: time)
        return lastEvent
    }
}
