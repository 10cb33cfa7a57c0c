import PoiseDeviceSettings
import PoiseFlightCore
import PoiseHAL
import PoiseMotion
import PoiseSensors
import Logging
import PoiseLogging

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

/// A driver on a simulated chip: the simulated board in one call.
///
/// The chip is mounted as `settings.mounting` says, so body-frame output equals the motion.
public func makeSimulatedIMU<Motion: SimulatedMotion>(
    motion: Motion, errors: SensorErrorModel = .typical, settings: MPU9250Settings = .default,
    logger: Logger = Logger(label: "poise.sensors.sim")
) -> MPU9250<SimulatedMPU9250<Motion>> {
    let chip = SimulatedMPU9250(motion: motion, errors: errors, mounting: settings.mounting,
                                address: settings.address)
    return MPU9250(bus: chip, settings: settings, logger: DriverLog(logger))
}
