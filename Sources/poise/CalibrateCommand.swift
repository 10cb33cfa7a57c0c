import PoiseConfig
import PoiseDeviceSettings
import PoiseDeviceTools
import PoiseHAL
import PoiseLinux
import PoiseMath
import PoiseSensors
import PoiseSettings
import PoiseSimulation
import PoiseTraces
import ArgumentParser
import Foundation
import PoiseLogging

struct CalibrateCommand: PoiseCommand {
    enum Sensor: String, ExpressibleByArgument, CaseIterable {
        case gyro, accel, mag

        var part: CalibrationPart {
            switch self {
            case .gyro: .gyroscope
            case .accel: .accelerometer
            case .mag: .magnetometer
            }
        }

        var guided: CalibrationSensor {
            switch self {
            case .gyro: .gyro
            case .accel: .accel
            case .mag: .mag
            }
        }
    }

    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Measure gyroscope bias, accelerometer offset and scale, or magnetometer hard and soft iron.",
        discussion: """
            Guides you step by step. gyro: keep the board still for 400 samples at the sensor rate, 2 s at 200 Hz, 0.4 s at 1 kHz (the prompt says how long; refused if it moves). \
            accel: rest it on each of its six faces in turn (any order). mag: turn it slowly \
            through all orientations, away from iron; or, with --trace, fit a recorded trace's \
            mx, my, mz (recorded without magnetometer calibration; body frame). With --board sim \
            the simulated board follows the instructions itself.

            The result is printed as sensor.calibration YAML in the chip frame (board.mounting \
            undone, so re-mounting the board keeps it valid). With --config FILE the board, \
            bus, address, mounting and ranges come from FILE; --save then writes the result \
            into FILE, changing only those sensor.calibration keys and keeping every other line \
            and comment (a FILE that does not exist yet is created with just those keys).

            Examples:
              poise calibrate gyro
              poise calibrate gyro --config board.yaml --save
              poise calibrate mag --seconds 60
              poise calibrate mag --trace turning.csv --config board.yaml --save
              poise calibrate accel --board sim --yes
            """)

    @Argument(help: "The sensor to calibrate: gyro, accel or mag.")
    var sensor: Sensor

    @OptionGroup var options: SensorOptions

    @Flag(help: "Write the result into the --config file instead of printing it to paste.")
    var save = false

    @Option(help: "mag only: fit this recorded trace's mx, my, mz (CSV or binary) instead of recording.")
    var trace: String?

    @Option(parsing: .unconditional, help: "Seconds of turning for the magnetometer recording.")
    var seconds: Double = 30

    @Flag(name: [.customShort("y"), .long], help: "Do not wait for Enter between steps (non-interactive).")
    var yes = false

    func validate() throws {
        if save && options.config == nil {
            throw ValidationError("--save writes into the configuration file: give it with --config FILE")
        }
        if trace != nil && sensor != .mag {
            throw ValidationError("--trace is for `poise calibrate mag`; gyro and accel need the board itself")
        }
        guard seconds > 0, seconds.isFinite, seconds <= 3600 else {
            throw ValidationError("--seconds must be in (0, 3600], got \(seconds)")
        }
    }

    func execute() throws {
        let target = try options.target(missingFileIsNew: save)
        if save, let file = target.file, !SensorCLI.canReplace(file) {
            throw SensorCLI.fail("\(file): cannot write it (or its directory), so --save could not keep the result",
                                 hint: "check the permissions, or leave out --save and paste the printed values")
        }
        let measured: SensorCalibration
        if let trace {
            measured = try magnetometerCalibration(fromTrace: trace)
        } else {
            measured = try measure(target)
        }
        try report(measured, target: target)
    }

    /// Runs the guided measurement on the board (PoiseDeviceTools' ``GuidedCalibration``, which
    /// `poise-board calibrate` runs too); the result is in the body frame.
    func measure(_ target: SensorCLI.Target) throws -> SensorCalibration {
        let settings = target.settings
        switch target.board {
        case .sim:
            let chip = SimulatedMPU9250(motion: GuidedMotion(), errors: .typical, mounting: settings.mounting,
                                        address: target.simulatedChipAddress)
            return try calibrate(chip, settings: settings, pacer: .simulated) { bus, step in
                switch step {
                case .holdStill(_, let attitude): bus.motion = GuidedMotion(attitude: attitude)
                case .tumble: bus.motion = GuidedMotion(tumbling: true)
                }
            }
        case .linux:
            let linuxBus: LinuxI2CBus
            do {
                linuxBus = try LinuxI2CBus(path: target.bus)
            } catch {
                throw SensorCLI.fail(error.description, hint: error.setupHint)
            }
            defer { linuxBus.close() }
            return try calibrate(linuxBus, settings: settings, pacer: .sleeping) { _, _ in }
        }
    }

    /// Prints the result, then saves it into the configuration or prints the YAML to paste.
    func report(_ measured: SensorCalibration, target: SensorCLI.Target) throws {
        let mounting = target.settings.mounting
        let guided: GuidedCalibration<LinuxI2CBus> = guided(target.settings)
        for line in guided.resultLines(measured, mounting: mounting) { print(line) }
        let frame = CalibrationYAML.frame(mounting)
        let values = measured.configurationValues(for: sensor.part, mounting: mounting)
        let snippet = CalibrationYAML.snippet(measured, sensor: sensor.guided, mounting: mounting)
        guard save, let file = target.file else {
            print("")
            print("For your configuration (\(frame))\(target.file == nil ? "" : "; --save writes it into \(target.file!)"):")
            print(snippet, terminator: "")
            return
        }
        let updated: String
        do {
            // A file that does not exist yet is created with just these keys.
            let text = FileManager.default.fileExists(atPath: file) ? try readTextFile(file) : ""
            updated = try ConfigEditor.setting(values, in: text, file: file)
            try SensorCLI.replaceFile(at: file, with: updated)
        } catch {
            // Keep the measurement: it may have taken minutes of turning the board.
            print("")
            print("Not saved; paste this into \(file) yourself (\(frame)):")
            print(snippet, terminator: "")
            throw SensorCLI.fail("\(error)")
        }
        print("Saved \(values.map(\.path).joined(separator: ", ")) in \(file) (\(frame)).")
    }

    /// Fits the ellipsoid to the magnetometer columns of a trace (body frame, as recorded).
    func magnetometerCalibration(fromTrace path: String) throws -> SensorCalibration {
        var fields: [SIMD3<Float>] = []
        do {
            var reader = try TraceReader(path: path)
            while let sample = try reader.next() {
                // Repeated values (a field read more often than the AK8963 measures) add no information.
                if let field = sample.magnetometer, field.x.isFinite, field.y.isFinite, field.z.isFinite, field != fields.last {
                    fields.append(field)
                }
            }
        } catch {
            throw SensorCLI.fail(error.description)
        }
        guard !fields.isEmpty else {
            throw SensorCLI.fail("\(path): no magnetometer values (columns mx, my, mz); record the trace with the magnetometer on")
        }
        print("Magnetometer samples from \(path): \(fields.count).")
        return try fitMagnetometer(fields)
    }

    /// The ellipsoid fit with its report; the fit refuses samples that cover too few directions.
    func fitMagnetometer(_ fields: [SIMD3<Float>]) throws -> SensorCalibration {
        do throws(BenchFailure) {
            let calibration: GuidedCalibration<LinuxI2CBus> = guided(.default)
            return try calibration.fitMagnetometer(fields)
        } catch {
            throw SensorCLI.fail(error.message, hint: error.hint)
        }
    }

    /// Prints the instruction and waits for Enter unless `--yes`.
    func prompt(_ text: String) throws(BenchFailure) {
        print(text + (yes ? "" : " Press Enter when ready."))
        if !yes, readLine() == nil {
            throw BenchFailure("no input on stdin; pass --yes to run without prompts")
        }
    }

    /// The guided calibration of this command's sensor, printing to standard output.
    func guided<Bus: I2CBus>(_ settings: MPU9250Settings, pacer: SensorCLI.TickPacer<Bus> = .init { _, _, _ in }) -> GuidedCalibration<Bus> {
        GuidedCalibration(sensor: sensor.guided, settings: settings, seconds: seconds, log: DriverLog(SensorCLI.commandLogger()),
                          pacer: pacer.wait, say: { print($0) }, prompt: { text throws(BenchFailure) in try prompt(text) })
    }

    /// Starts the driver (no calibration applied: the solvers need raw readings) and runs the steps.
    func calibrate<Bus: I2CBus>(_ bus: Bus, settings: MPU9250Settings, pacer: SensorCLI.TickPacer<Bus>,
                                guide: (inout Bus, CalibrationStep) -> Void) throws -> SensorCalibration {
        do throws(BenchFailure) {
            return try guided(settings, pacer: pacer).measure(on: bus, guide: guide)
        } catch {
            throw SensorCLI.fail(error.message, hint: error.hint)
        }
    }

    /// The motion of the simulated board during a guided calibration: it does what the prompts ask.
    struct GuidedMotion: SimulatedMotion {
        var attitude: Quaternion = .identity
        var tumbling = false

        func state(at time: Double) -> (specificForce: SIMD3<Float>, angularRate: SIMD3<Float>, magneticField: SIMD3<Float>) {
            guard tumbling else { return StaticPose(attitude: attitude).state(at: time) }
            // Turning about world z at 0.37 rad/s while rolling about body x at 1.1 rad/s covers
            // every orientation within a minute.
            let a: Float = 0.37, b: Float = 1.1
            let roll = Quaternion(axis: SIMD3(1, 0, 0), angle: b * Float(time))
            let q = Quaternion(axis: SIMD3(0, 0, 1), angle: a * Float(time)) * roll
            let rate = SIMD3<Float>(b, 0, 0) + roll.inverseRotate(SIMD3(0, 0, a))
            return (q.inverseRotate(SIMD3(0, 0, Gravity.standard)), rate, q.inverseRotate(typicalGeomagneticField))
        }
    }
}
