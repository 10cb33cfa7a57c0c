import PoiseDeviceSettings
import PoiseFlightCore
import PoiseFlightSettings
import PoiseHAL
import PoiseLinux
import PoiseOutputs
import PoiseSensors
import PoiseThreads

/// The real rig ``RigSettings`` describe, opened and its helper threads started: the I²C bus
/// and MPU-9250 driver with the outputs, the arming switch's watcher, the wheel encoders and
/// the bus reopener. The one builder of the Linux board: `poise run`, `poise tune` on a real
/// rig and the board binary open the same parts. `stop()` ends the helper threads; the board
/// itself is released by the loop that drove it.
public final class LinuxRigParts {
    public let board: LinuxBoard
    public let armSwitch: LinuxArmSwitch?
    public let encoders: LinuxWheelEncoders?
    public let reopener: LinuxBusReopener

    /// Opens the rig. `log` takes the driver's messages; `warn` the bus reopener's lines.
    public init(_ rig: RigSettings, calibration: SensorCalibration, outputs: OutputBankSettings, log: DriverLog,
                warn: @escaping @Sendable (String) -> Void) throws(RigError) {
        board = try Self.board(rig, calibration: calibration, outputs: outputs, log: log)
        armSwitch = try Self.armSwitch(rig)
        do { encoders = try Self.encoders(rig) } catch {
            armSwitch?.stop()
            throw error
        }
        // Off the real-time thread: reopens the bus while it keeps failing.
        reopener = LinuxBusReopener(bus: board.driver.bus, health: board.busHealth, log: warn)
        reopener.start()
    }

    public func stop() {
        reopener.stop()
        encoders?.stop()
        armSwitch?.stop()
    }

    /// The I²C bus, the MPU-9250 driver with its calibration, and the outputs.
    public static func board(_ rig: RigSettings, calibration: SensorCalibration, outputs: OutputBankSettings,
                             log: DriverLog) throws(RigError) -> LinuxBoard {
        let bus: LinuxI2CBus
        do { bus = try LinuxI2CBus(path: rig.i2cBus) } catch {
            throw RigError("cannot open \(rig.i2cBus): \(error.description) (is I²C enabled? see docs/deploy.md; `board.kind: sim` runs without hardware)")
        }
        var driver = MPU9250(bus: bus, settings: rig.sensor, logger: log)
        driver.calibration = calibration
        do { return try LinuxBoard(driver: driver, outputs: outputs, start: monotonicNanoseconds()) } catch {
            throw RigError(error.description)
        }
    }

    /// The arming switch's watcher, started, when the rig has one (`safety.arm_source: switch`); nil otherwise.
    public static func armSwitch(_ rig: RigSettings) throws(RigError) -> LinuxArmSwitch? {
        guard let s = rig.armSwitch else { return nil }
        let watcher: LinuxArmSwitch
        do {
            watcher = try LinuxArmSwitch(chip: s.chip, line: s.line, activeLow: s.activeLow, bias: s.bias,
                                         debounce: s.debounce, state: ArmSwitchState())
        } catch { throw RigError(error.description) }
        watcher.start()
        return watcher
    }

    /// The wheel encoders' reader, started, when the rig has encoders; nil otherwise.
    public static func encoders(_ rig: RigSettings) throws(RigError) -> LinuxWheelEncoders? {
        guard let e = rig.encoders else { return nil }
        let encoders: LinuxWheelEncoders
        do {
            encoders = try LinuxWheelEncoders(chip: e.chip, left: (e.leftA, e.leftB), right: (e.rightA, e.rightB),
                                              state: WheelEncoderState())
        } catch { throw RigError(error.description) }
        encoders.start()
        return encoders
    }
}

/// Why the rig could not be opened, in a line for the user.
public struct RigError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) { self.description = description }
}
