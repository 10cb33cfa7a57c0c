#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#endif
import PoiseDeviceSettings
import PoiseTraces
import PoiseDeviceTools
import PoiseFlightSettings
import PoiseHAL
import PoiseLinux
import PoiseSensors

/// `poise-board probe`: the report `poise probe` prints (PoiseDeviceTools' ``SensorProbe``)
/// on the board's i2c-dev bus, with the compiled file's bus and sensor settings and the flags
/// over them.
enum BoardProbe {
    static func run(_ request: BoardCommand.ProbeRequest) -> Int32 {
        var sensor = MPU9250Settings.default
        var busPath = RigSettings().i2cBus
        var calibration = SensorCalibration.identity
        var note = "Calibration: none (give --config COMPILED to apply its sensor.calibration)"
        if let path = request.config {
            let settings: FlightSettings
            do { settings = try CompiledSettingsFile.settings(path: path) } catch {
                BoardCommand.printError("poise-board: " + error.description)
                return 1
            }
            sensor = settings.rig.sensor
            busPath = settings.rig.i2cBus
            calibration = settings.calibration
            note = calibration == .identity ? "Calibration: none in " + path : "Calibration: sensor.calibration from " + path + " applied"
        }
        if let bus = request.bus { busPath = bus }
        if let address = request.address { sensor.address = address }
        let bus: LinuxI2CBus
        do throws(I2CError) { bus = try LinuxI2CBus(path: busPath) } catch {
            return fail(BenchFailure(error.description, hint: error.setupHint))
        }
        defer { bus.close() }
        let log = DriverLog(minimumLevel: .warning) { _, message in BoardCommand.printError("poise-board: sensor: " + message) }
        let probe = SensorProbe<LinuxI2CBus>(settings: sensor, calibration: calibration, calibrationNote: note, log: log) { _, _, period in
            var pause = timespec(tv_sec: 0, tv_nsec: Int(period * 1e9))
            nanosleep(&pause, nil)
        }
        do throws(BenchFailure) {
            try probe.run(on: bus, samples: request.samples) { BoardCommand.printLine($0) }
        } catch {
            return fail(error)
        }
        return 0
    }

    static func fail(_ failure: BenchFailure) -> Int32 {
        BoardCommand.printError("poise-board: " + failure.message)
        if let hint = failure.hint { BoardCommand.printError("poise-board: " + hint) }
        return 1
    }
}
