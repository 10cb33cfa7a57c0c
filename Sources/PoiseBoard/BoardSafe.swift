import PoiseDeviceTools
import PoiseFlightCore
import PoiseFlightSettings
import PoiseHAL
import PoiseLinux
import PoiseTraces
import PoiseOutputs

/// `poise-board safe` (the unit's `ExecStopPost`): every output of the compiled
/// configuration at its safe value, as `poise safe` does it (PoiseDeviceTools'
/// ``OutputSafing``): one line per channel, each failure as `poise-board: output NAME (WHERE):
/// reason`, exit 1 when any output could not be made safe.
enum BoardSafe {
    static func run(config path: String) -> Int32 {
        let settings: FlightSettings
        do { settings = try CompiledSettingsFile.settings(path: path) } catch {
            BoardCommand.printError("poise-board: " + error.description)
            return 1
        }
        let outputs = settings.outputBank
        guard !outputs.channels.isEmpty else {
            BoardCommand.printLine(path + ": no outputs configured")
            return 0
        }
        var bus: LinuxI2CBus? = nil
        var busProblem: OutputError? = nil
        if outputs.usesPCA9685 {
            do throws(I2CError) { bus = try LinuxI2CBus(path: settings.rig.i2cBus) } catch {
                busProblem = OutputError(channel: "PCA9685", place: settings.rig.i2cBus, reason: error.description)
            }
        }
        let (lines, failures) = OutputSafing.makeSafe(outputs, gpio: LinuxGPIODevice(), files: LinuxPWMFiles(), bus: &bus,
                                                      busProblem: busProblem)
        bus?.close()
        for line in lines { BoardCommand.printLine(line) }
        for failure in failures { BoardCommand.printError("poise-board: " + failure.description) }
        return failures.isEmpty ? 0 : 1
    }
}
