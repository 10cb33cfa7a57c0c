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

/// The real rig a configuration describes (`board.kind: linux`), opened and its helper threads
/// started: the I²C bus and MPU-9250 driver with the outputs, the arming switch's watcher, the
/// wheel encoders and the bus reopener. The one builder of the Linux board: `poise run`
/// (``LoopRunner``) and `poise tune` on a real rig (``LinuxRig``) run the same parts.
/// `stop()` ends the helper threads; the board itself is released by the loop that drove it.
final class LinuxRigParts {
    let board: LinuxBoard
    let armSwitch: LinuxArmSwitch?
    let encoders: LinuxWheelEncoders?
    let reopener: LinuxBusReopener

    init(_ configuration: PoiseConfiguration, outputs: OutputBankSettings, logger: Logger) throws(RunError) {
        board = try Self.board(configuration, outputs: outputs, logger: logger)
        armSwitch = try Self.armSwitch(configuration)
        do { encoders = try Self.encoders(configuration) } catch {
            armSwitch?.stop()
            throw error
        }
        // Off the real-time thread: reopens the bus while it keeps failing.
        let reopenLogger = logger
        reopener = LinuxBusReopener(bus: board.driver.bus, health: board.busHealth) { reopenLogger.warning("\($0)") }
        reopener.start()
    }

    func stop() {
        reopener.stop()
        encoders?.stop()
        armSwitch?.stop()
    }

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
                                         line: UInt32(s.line), activeLow: s.activeLow, bias: bias(s.bias),
                                         debounce: s.debounceMilliseconds / 1000, state: ArmSwitchState())
        } catch { throw RunError(error.description) }
        watcher.start()
        return watcher
    }

    /// The wheel encoders' reader, started, when the balancing robot has encoders
    /// (`controller.balance.encoders.counts_per_revolution` > 0); nil otherwise.
    static func encoders(_ configuration: PoiseConfiguration) throws(RunError) -> LinuxWheelEncoders? {
        guard configuration.controller.kind == .balance, configuration.controller.balance.encoderCountsPerRevolution > 0 else {
            return nil
        }
        let d = configuration.controller.drive
        let encoders: LinuxWheelEncoders
        do {
            encoders = try LinuxWheelEncoders(chip: d.encoderChip.isEmpty ? configuration.board.gpioChip : d.encoderChip,
                                              left: (UInt32(d.leftA), UInt32(d.leftB)),
                                              right: (UInt32(d.rightA), UInt32(d.rightB)), state: WheelEncoderState())
        } catch { throw RunError(error.description) }
        encoders.start()
        return encoders
    }

    static func bias(_ bias: PoiseConfiguration.Safety.Switch.Bias) -> LinuxArmSwitch.Bias {
        switch bias {
        case .asIs: .asIs
        case .disable: .disable
        case .pullUp: .pullUp
        case .pullDown: .pullDown
        }
    }
}
