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
    /// as plain data in `notices`. In direct mode, once the driver has started, every tick
    /// allocates nothing and is checked by the optimiser through `checkedLoopTick()`: the
    /// running path (one burst, the stuck-data check, calibration, the magnetometer when due)
    /// and the re-initialisation of a lost sensor (reset, wait, identify, write and verify
    /// the configuration table, the magnetometer's set-up, failures and recovery), which
    /// says what it did in `notices` as the running path does. The first start-up and FIFO
    /// mode go through `startingTick()`, which is not checked: the first start-up logs
    /// itself, before the loop's first sample.
    public mutating func loopTick() -> DriverTick {
        var newest: SensorSample? = nil
        let failedBefore = counters.failedTicks
        var running = directReads
        var restarting = directReads && started
        switch phase {
        case .running: restarting = false
        case .reset, .waiting, .configure, .lost: running = false
        }
        if running {
            tickIndex += 1
            counters.ticks += 1
            newest = readBurstSample()
        } else if restarting {
            restartTick()
        } else {
            newest = startingTick()
        }
        // `phase.sensorState`, not `state`: a non-mutating getter would take a copy of the
        // whole driver (logger and bus included), which means reference counting.
        return DriverTick(sample: newest, state: phase.sensorState, failedTicks: counters.failedTicks,
                          readFailed: counters.failedTicks != failedBefore, notices: takeNotices())
    }

    /// The first start-up's and FIFO mode's ticks: outside the optimiser's check (see
    /// `loopTick`). Until the driver has started, it logs what the start-up path did itself.
    @inline(never) @_semantics("no_performance_analysis")
    mutating func startingTick() -> SensorSample? {
        var newest: SensorSample? = nil
        let wasStarted = started
        step { newest = $0 }
        if !wasStarted, !notices.events.isEmpty {
            var own = notices
            own.kinds = SensorNotices.Kinds(rawValue: 0)
            logNotices(own)
            notices.events = SensorNotices.Events(rawValue: 0)
        }
        return newest
    }
}
