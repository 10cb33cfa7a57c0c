import PoiseControl
import PoiseFlightCore
import PoiseHAL
import PoiseOutputs

/// The bank on real hardware: libgpiod lines, sysfs files, the sensor's i2c-dev bus.
public typealias LinuxOutputBank = OutputBank<LinuxGPIODevice, LinuxPWMFiles>

extension OutputBank where GPIO == LinuxGPIODevice, Files == LinuxPWMFiles {
    /// ``write(_:dt:bus:)`` specialised for real hardware, where the release build checks
    /// that a tick's output writes allocate nothing and take no locks.
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func tick(_ commands: ChannelCommands, dt: Double, bus: inout LinuxI2CBus) -> OutputFault? {
        write(commands, dt: dt, bus: &bus)
    }

    /// ``driveSafe(bus:)`` specialised for real hardware, checked like ``tick(_:dt:bus:)``.
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func tickSafe(bus: inout LinuxI2CBus) -> OutputFault? {
        driveSafe(bus: &bus)
    }

    /// ``tick(_:dt:bus:)`` for a bank without PCA9685 channels (no I²C bus needed).
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func tick(_ commands: ChannelCommands, dt: Double) -> OutputFault? {
        var none = NoI2CBus()
        return write(commands, dt: dt, bus: &none)
    }
}
