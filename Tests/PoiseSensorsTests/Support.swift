@testable import PoiseSensors
import PoiseDeviceSettings
import PoiseFlightCore
import PoiseHAL
import PoiseSimulation
import Logging
import PoiseMath
import PoiseMotion
import PoiseLogging

/// A quiet logger for tests.
let quiet: Logger = {
    var logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
    logger.logLevel = .critical
    return logger
}()

/// Settings for a loop at `tickRate` Hz.
func testSettings(tickRate: Double = 100, configure: (inout MPU9250Settings) -> Void = { _ in }) -> MPU9250Settings {
    var settings = MPU9250Settings()
    settings.tickRate = tickRate
    settings.stuckAfterIdenticalReads = 1000
    configure(&settings)
    return settings
}

/// A driver on a simulated chip.
func simulatedDriver<M: SimulatedMotion>(
    _ motion: M, errors: SensorErrorModel = .ideal, chipMounting: Mounting = .identity,
    settings: MPU9250Settings = testSettings(), faults: SimulatedFaults = SimulatedFaults()
) -> MPU9250<SimulatedMPU9250<M>> {
    var errors = errors
    errors.seed = 42
    var chip = SimulatedMPU9250(motion: motion, errors: errors, mounting: chipMounting)
    chip.faults = faults
    return MPU9250(bus: chip, settings: settings, logger: DriverLog(quiet))
}

/// Runs `ticks` ticks at the settings' tick rate from `start`; returns the samples.
@discardableResult
func run<M>(_ driver: inout MPU9250<SimulatedMPU9250<M>>, ticks: Int, from start: inout Int) -> [SensorSample] {
    var samples: [SensorSample] = []
    for _ in 0..<ticks {
        start += 1
        driver.tick(at: Double(start) / driver.settings.tickRate) { samples.append($0) }
    }
    return samples
}

func close(_ a: SIMD3<Float>, _ b: SIMD3<Float>, _ tolerance: Float) -> Bool {
    let d = a - b
    return (d * d).sum().squareRoot() <= tolerance
}
