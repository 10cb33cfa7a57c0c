import PoiseSensors

// The driver's tick for i2c-dev, as the live loop calls it, under the optimiser's check
// (the checker needs a concrete bus to see through the generic driver).
extension MPU9250 where Bus == LinuxI2CBus {
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func checkedLoopTick() -> DriverTick { loopTick() }
}
