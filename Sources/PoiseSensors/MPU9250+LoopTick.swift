import PoiseFlightCore

/// What one loop tick of the driver produced.
public struct DriverTick: Sendable {
    public var sample: SensorSample?
    public var state: SensorState
    /// Failed ticks so far (counts, for the loop's statistics).
    public var failedTicks: Int
    /// This tick's read failed after the retries (the count above went up in it).
    public var readFailed: Bool
    /// What happened this tick, for a thread that may log (the loop's reporter).
    public var notices: SensorNotices
}

extension MPU9250 {
    /// One tick for the real-time loop: `tick()` without logging — what happened comes back
    /// as plain data in `notices`. The running path (direct mode: one burst, the stuck-data
    /// check, calibration, the magnetometer when due) allocates nothing and is checked by the
    /// optimiser through `checkedLoopTick()`; reset, configuration, re-initialisation after a
    /// loss and FIFO mode go through `startingTick()`, which is not (they build log text and
    /// run only while the sensor is not delivering, when the supervisor holds every output
    /// safe).
    public mutating func loopTick() -> DriverTick {
        var newest: SensorSample? = nil
        let failedBefore = counters.failedTicks
        var running = directReads
        switch phase {
        case .running: break
        case .reset, .waiting, .configure, .lost: running = false
        }
        if running {
            tickIndex += 1
            counters.ticks += 1
            newest = readBurstSample()
        } else {
            newest = startingTick()
        }
        // `phase.sensorState`, not `state`: a non-mutating getter would take a copy of the
        // whole driver (logger and bus included), which means reference counting.
        return DriverTick(sample: newest, state: phase.sensorState, failedTicks: counters.failedTicks,
                          readFailed: counters.failedTicks != failedBefore, notices: takeNotices())
    }

    /// Start-up, recovery and FIFO ticks: outside the optimiser's check (see `loopTick`).
    @inline(never) @_semantics("no_performance_analysis")
    mutating func startingTick() -> SensorSample? {
        var newest: SensorSample? = nil
        step { newest = $0 }
        return newest
    }
}
