/// A bus whose time the caller advances (the simulated chip).
public protocol SimulatedClock {
    mutating func advance(to time: Double)
}

extension SimulatedMPU9250: SimulatedClock {}

extension MPU9250 where Bus: SimulatedClock {
    /// Advances simulated time to `time` (s), then ticks once.
    @discardableResult
    public mutating func tick(at time: Double) -> SensorSample? {
        bus.advance(to: time)
        return tick()
    }

    /// Advances simulated time to `time` (s), then ticks once, delivering every sample.
    public mutating func tick(at time: Double, _ deliver: (SensorSample) -> Void) {
        bus.advance(to: time)
        tick(deliver)
    }
}
