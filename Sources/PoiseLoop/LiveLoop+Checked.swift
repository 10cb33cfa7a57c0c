import PoiseFusion
import PoiseLinux

// The loop step specialised for the board a Pi runs, checked by the optimiser in release
// builds (scripts/test): sensor read over i2c-dev, the tick (a reload's `apply` included),
// the output bank, the rings. `LinuxRig` builds exactly this loop (a `LinuxBoard` with
// Poise's filter) and runs it on the `RealTimeClock`, and `run(clock:)` steps it through
// `checkedOrPlainStep`, so the code the check covers is the code that runs.
extension LiveLoop where Board == LinuxBoard, Filter == PoiseFilter {
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    mutating func checkedStep(now: Double, stop: Bool, overrunStreak: Int, outputFaulted: inout Bool,
                              lateness: Int64, wake: Int64, period: Int64, stall: Int64, clock: RealTimeClock) -> Bool {
        step(now: now, stop: stop, overrunStreak: overrunStreak, outputFaulted: &outputFaulted,
             lateness: lateness, wake: wake, period: period, stall: stall, clock: clock)
    }
}

extension LiveLoop {
    /// Whether `run(clock:)` on `Clock` steps through ``checkedStep`` (a real board, Poise's
    /// filter, the real clock); the other loops (simulated boards, virtual time) take the
    /// generic `step`, which no release check covers.
    @inlinable @inline(__always)
    static func stepsChecked<Clock: LoopClock>(on clock: Clock.Type) -> Bool {
        Board.self == LinuxBoard.self && Filter.self == PoiseFilter.self && Clock.self == RealTimeClock.self
    }

    /// One tick of `run(clock:)`: ``checkedStep`` where the types are the checked ones (the
    /// test is on types, so a specialised loop keeps one branch), the generic step elsewhere.
    @inline(__always)
    mutating func checkedOrPlainStep<Clock: LoopClock>(
        now: Double, stop: Bool, overrunStreak: Int, outputFaulted: inout Bool,
        lateness: Int64, wake: Int64, period: Int64, stall: Int64, clock: Clock
    ) -> Bool {
        guard Self.stepsChecked(on: Clock.self) else {
            return step(now: now, stop: stop, overrunStreak: overrunStreak, outputFaulted: &outputFaulted,
                        lateness: lateness, wake: wake, period: period, stall: stall, clock: clock)
        }
        // The same types under their concrete names: a rebinding, not a conversion.
        let realClock = unsafeBitCast(clock, to: RealTimeClock.self)
        return withUnsafeMutablePointer(to: &self) { loop in
            loop.withMemoryRebound(to: LiveLoop<LinuxBoard, PoiseFilter>.self, capacity: 1) { linux in
                linux.pointee.checkedStep(now: now, stop: stop, overrunStreak: overrunStreak, outputFaulted: &outputFaulted,
                                          lateness: lateness, wake: wake, period: period, stall: stall, clock: realClock)
            }
        }
    }
}
