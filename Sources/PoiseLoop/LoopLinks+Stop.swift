extension LoopLinks {
    /// Asks the loop to stop at its next tick, as SIGINT would (the stopping tick goes
    /// failsafe): for a tool that drives the loop tick by tick (`poise tune`) and is done.
    public func requestStop() {
        signals._withUnsafeGuaranteedRef { $0.requestStop() }
    }
}
