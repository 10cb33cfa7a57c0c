import PoiseFusion

// The optimiser checks @_noAllocation/@_noLocks on concrete code only, so the generic tick is
// checked through its specialisation for each filter a run can choose (release builds in
// scripts/test compile these; an allocation anywhere in the tick fails the build).
extension FlightCore where Filter == PoiseFilter {
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func checkedTick(_ reading: SensorReading, loop: LoopStatus) -> TickOutput { tick(reading, loop: loop) }

    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func checkedApply(_ tuning: CoreTuning) -> Bool { apply(tuning) }
}

extension FlightCore where Filter == MadgwickFilter {
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func checkedTick(_ reading: SensorReading, loop: LoopStatus) -> TickOutput { tick(reading, loop: loop) }
}

extension FlightCore where Filter == MahonyFilter {
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func checkedTick(_ reading: SensorReading, loop: LoopStatus) -> TickOutput { tick(reading, loop: loop) }
}

extension FlightCore where Filter == ComplementaryFilter {
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func checkedTick(_ reading: SensorReading, loop: LoopStatus) -> TickOutput { tick(reading, loop: loop) }
}

extension FlightCore where Filter == MultiplicativeKalmanFilter {
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func checkedTick(_ reading: SensorReading, loop: LoopStatus) -> TickOutput { tick(reading, loop: loop) }
}
