import PoiseControl
import PoiseFlightCore
import PoiseOutputs
import PoiseSensors
import PoiseMath

/// A real board: the MPU-9250 over i2c-dev, outputs through libgpiod, sysfs PWM and a
/// PCA9685 on the sensor's bus. Sample times are read off CLOCK_MONOTONIC when the burst
/// read returns (the chip has no timestamps), relative to the loop's start.
public struct LinuxBoard: BoardBackend {
    public var driver: MPU9250<LinuxI2CBus>
    public var bank: LinuxOutputBank
    @usableFromInline let start: Int64
    /// Whether the bus is failing, for the reopener's thread (``LinuxBusReopener``).
    public let busHealth = I2CBusHealth()
    /// The same object, read in the tick without reference counting (`busHealth` keeps it).
    @usableFromInline let health: Unmanaged<I2CBusHealth>

    public init(driver: MPU9250<LinuxI2CBus>, outputs: OutputBankSettings, start: Int64) throws(OutputError) {
        self.driver = driver
        self.start = start
        health = .passUnretained(busHealth)
        bank = try LinuxOutputBank(settings: outputs, gpio: LinuxGPIODevice(), files: LinuxPWMFiles(), bus: &self.driver.bus)
    }

    /// Inlinable: the loop's checked step in another module must see through it, and
    /// cross-module optimisation does not export a non-generic function of this size.
    @inlinable
    public mutating func read(now: Double) -> SensorReading {
        let tick = driver.checkedLoopTick()
        let time = Double(monotonicNanoseconds() - start) * 1e-9
        var reading = SensorReading(sample: tick.sample, time: time, state: tick.state, readFailed: tick.readFailed)
        reading.notices = tick.notices
        // A failed read marks the bus failing; a good running read clears it; a tick without
        // a transfer (a re-initialisation wait) leaves it.
        if tick.readFailed {
            health._withUnsafeGuaranteedRef { $0.report(failing: true) }
        } else if case .running = tick.state {
            health._withUnsafeGuaranteedRef { $0.report(failing: false) }
        }
        return reading
    }

    public mutating func write(_ commands: ChannelCommands, dt: Double) -> OutputFault? {
        bank.tick(commands, dt: dt, bus: &driver.bus)
    }

    public mutating func driveSafe() -> OutputFault? {
        bank.tickSafe(bus: &driver.bus)
    }

    public var sensorErrors: Int { driver.counters.failedTicks }

    /// Lets every output go at its safe value (GPIO lines released, PWM left at safe).
    public mutating func release() -> [OutputError] {
        bank.release(unexport: false, bus: &driver.bus)
    }
}

// The driver's tick for i2c-dev, as `read(now:)` calls it, under the optimiser's check (the
// checker needs a concrete bus to see through the generic driver). Checked by the host's
// release build; Embedded Swift counts the driver's logger (a class) where the host does not.
extension MPU9250 where Bus == LinuxI2CBus {
    #if !DEBUG && !hasFeature(Embedded)
    @_noAllocation @_noLocks
    #endif
    public mutating func checkedLoopTick() -> DriverTick { loopTick() }
}
