import PoiseFusion

// The optimiser checks @_noAllocation/@_noLocks on concrete code only, so the generic tick is
// checked through its specialisation for each filter a run can choose (release builds in
// scripts/test compile these; an allocation anywhere in the tick fails the build). The tick
// and a reload's `apply` as the board's loop runs them are checked again inside PoiseLoop's
// `checkedStep`, which that loop calls; the benchmarks call these.
extension FlightCore where Filter == PoiseFilter {
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func checkedTick(_ reading: SensorReading, loop: LoopStatus) -> TickOutput { tick(reading, loop: loop) }
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
