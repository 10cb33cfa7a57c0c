import PoiseFusion
import PoiseLinux

// The loop step specialised for the board a Pi runs, checked by the optimiser in release
// builds (scripts/test): sensor read over i2c-dev, the tick, the output bank, the rings.
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
