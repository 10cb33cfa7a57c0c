import Logging
import PoiseConfig
import PoiseDeviceSettings
import PoiseFlightCore
import PoiseHAL
import PoiseLinux
import PoiseOutputs
import PoiseSensors
import PoiseLogging
import PoiseThreads

/// Opening the real board and its arming switch from a configuration, shared by `poise run`
/// (``LoopRunner``) and `poise tune` on a real rig (``LinuxRig``).
enum LinuxBoardSetup {
    /// The I²C bus, the MPU-9250 driver with its calibration, and the outputs.
    static func board(_ configuration: PoiseConfiguration, outputs: OutputBankSettings,
                      logger: Logger) throws(RunError) -> LinuxBoard {
        let bus: LinuxI2CBus
        do { bus = try LinuxI2CBus(path: configuration.board.i2cBus) } catch {
            throw RunError("cannot open \(configuration.board.i2cBus): \(error) (is I²C enabled? see docs/deploy.md; `board.kind: sim` runs without hardware)")
        }
        var driver = MPU9250(bus: bus, settings: MPU9250Settings(configuration: configuration), logger: DriverLog(logger))
        driver.calibration = SensorCalibration(configuration: configuration)
        do { return try LinuxBoard(driver: driver, outputs: outputs, start: monotonicNanoseconds()) } catch {
            throw RunError(error.description)
        }
    }

    /// The arming switch's watcher, started, when `safety.arm_source` is `switch`; nil otherwise.
    static func armSwitch(_ configuration: PoiseConfiguration) throws(RunError) -> LinuxArmSwitch? {
        guard configuration.safety.supervisor.armSource == .armSwitch else { return nil }
        let s = configuration.safety.armSwitch
        let watcher: LinuxArmSwitch
        do {
            watcher = try LinuxArmSwitch(chip: s.chip.isEmpty ? configuration.board.gpioChip : s.chip,
                                         line: UInt32(s.line), activeLow: s.activeLow, bias: LoopWork.bias(s.bias),
                                         debounce: s.debounceMilliseconds / 1000, state: ArmSwitchState())
        } catch { throw RunError(error.description) }
        watcher.start()
        return watcher
    }
}
