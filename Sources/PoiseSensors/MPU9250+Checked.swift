import PoiseIO

// The driver's tick for i2c-dev, as the live loop calls it.
//
// NOT YET UNDER THE OPTIMISER'S CHECK: the running path allocates nothing in normal
// operation (the loop's malloc count measures it), but its failure and saturation paths log
// with interpolated strings, and the reset/configure phases run through the same `tick()`.
// Until those report static notices instead, this entry point is excluded from performance
// analysis so the rest of the loop step stays checked. docs/loop.md says the same.
extension MPU9250 where Bus == LinuxI2CBus {
    @inline(never) @_semantics("no_performance_analysis")
    public mutating func loopTick() -> (sample: SensorSample?, state: SensorState, failedTicks: Int) {
        let sample = tick()
        return (sample, state, counters.failedTicks)
    }
}
