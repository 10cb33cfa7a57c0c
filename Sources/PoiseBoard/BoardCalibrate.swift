#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#endif
import PoiseDeviceSettings
import PoiseDeviceTools
import PoiseFlightSettings
import PoiseHAL
import PoiseLinux
import PoiseSensors
import PoiseTraces

/// `poise-board calibrate gyro|accel|mag`: the guided calibration `poise calibrate` runs
/// (PoiseDeviceTools' ``GuidedCalibration``: the same prompts, measurement and result) on the
/// compiled file's bus and sensor, printing the `sensor.calibration` YAML to paste into the
/// configuration on the host; the board keeps no copy of it.
enum BoardCalibrate {
    static func run(_ request: BoardCommand.CalibrateRequest) -> Int32 {
        let settings: FlightSettings
        do { settings = try CompiledSettingsFile.settings(path: request.config) } catch {
            BoardCommand.printError("poise-board: " + error.description)
            return 1
        }
        let sensor: CalibrationSensor = request.sensor == "gyro" ? .gyro : request.sensor == "accel" ? .accel : .mag
        let bus: LinuxI2CBus
        do throws(I2CError) { bus = try LinuxI2CBus(path: settings.rig.i2cBus) } catch {
            return BoardProbe.fail(BenchFailure(error.description, hint: error.setupHint))
        }
        defer { bus.close() }
        let log = DriverLog(minimumLevel: .warning) { _, message in BoardCommand.printError("poise-board: sensor: " + message) }
        let yes = request.yes
        let calibration = GuidedCalibration<LinuxI2CBus>(
            sensor: sensor, settings: settings.rig.sensor, seconds: request.seconds, programName: "poise-board", log: log,
            pacer: { _, _, period in
                var pause = timespec(tv_sec: 0, tv_nsec: Int(period * 1e9))
                nanosleep(&pause, nil)
            },
            say: { BoardCommand.printLine($0) },
            prompt: { text throws(BenchFailure) in
                BoardCommand.printLine(text + (yes ? "" : " Press Enter when ready."))
                if !yes, !readLine() { throw BenchFailure("no input on stdin; pass --yes to run without prompts") }
            })
        let measured: SensorCalibration
        do throws(BenchFailure) { measured = try calibration.measure(on: bus) } catch {
            return BoardProbe.fail(error)
        }
        var text = report(measured, calibration: calibration, mounting: settings.rig.sensor.mounting)
        text.withUTF8 { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        BoardCommand.printError("poise-board: paste these lines into the configuration's YAML on the host (or run `poise calibrate` "
                                + "there with --save), then compile it again and copy the compiled file here")
        return 0
    }

    /// What follows the measurement on standard output: the result's lines, then the YAML to
    /// paste — the text `poise calibrate` prints without a configuration file.
    static func report<Bus>(_ measured: SensorCalibration, calibration: GuidedCalibration<Bus>, mounting: Mounting) -> String {
        var text = ""
        for line in calibration.resultLines(measured, mounting: mounting) { text += line + "\n" }
        text += "\nFor your configuration (" + CalibrationYAML.frame(mounting) + "):\n"
        return text + CalibrationYAML.snippet(measured, sensor: calibration.sensor, mounting: mounting)
    }

    /// Reads standard input up to the end of a line; false at its end (nothing more to read).
    static func readLine() -> Bool {
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return false }
            if byte == 10 { return true }
        }
    }
}
