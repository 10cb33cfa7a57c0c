import PoiseConfig
import PoiseDeviceSettings
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

    /// Runs the guided measurement on the board; the result is in the body frame.
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
        let chip = measured.inChipFrame(mounting)
        switch sensor {
        case .gyro:
            print("gyroscope bias (rad/s): \(numbers(chip.gyroscopeBias))")
        case .accel:
            print("accelerometer offset (m/s²): \(numbers(chip.accelerometerOffset))")
            print("accelerometer scale: \(numbers(chip.accelerometerScale))")
        case .mag:
            print("magnetometer hard iron (µT): \(numbers(chip.magnetometerHardIron))")
            print("magnetometer soft iron row 1: \(numbers(chip.magnetometerSoftIron.0))")
            print("magnetometer soft iron row 2: \(numbers(chip.magnetometerSoftIron.1))")
            print("magnetometer soft iron row 3: \(numbers(chip.magnetometerSoftIron.2))")
        }
        let frame = mounting == .identity ? "chip frame = body frame" : "chip frame, mounting \(mounting) undone"
        let values = measured.configurationValues(for: sensor.part, mounting: mounting)
        guard save, let file = target.file else {
            print("")
            print("For your configuration (\(frame))\(target.file == nil ? "" : "; --save writes it into \(target.file!)"):")
            print(ConfigEditor.snippet(values), terminator: "")
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
            print(ConfigEditor.snippet(values), terminator: "")
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
        do {
            let fit = try MagnetometerCalibration.fit(fields)
            print("Ellipsoid fitted to \(fields.count) samples: field \(SensorCLI.fixed(Double(fit.fieldStrength), 1)) µT, residual \(SensorCLI.fixed(Double(fit.residual), 2)) µT RMS.")
            try fit.checkCoverage(fields)
            return SensorCalibration.identity.with(fit)
        } catch {
            throw SensorCLI.fail(error.description)
        }
    }

    /// Prints the instruction and waits for Enter unless `--yes`.
    func prompt(_ text: String) throws {
        print(text + (yes ? "" : " Press Enter when ready."))
        if !yes, readLine() == nil {
            throw SensorCLI.fail("no input on stdin; pass --yes to run without prompts")
        }
    }

    /// Starts the driver (no calibration applied: the solvers need raw readings) and runs the steps.
    func calibrate<Bus: I2CBus>(_ bus: Bus, settings: MPU9250Settings, pacer: SensorCLI.TickPacer<Bus>,
                                guide: (inout Bus, CalibrationStep) -> Void) throws -> SensorCalibration {
        var driver = MPU9250(bus: bus, settings: settings, logger: DriverLog(SensorCLI.commandLogger()))
        var clock = 0.0
        SensorCLI.runTicks(&driver, settings.ticks(settings.resetDelay) + 2, clock: &clock, pacer: pacer)
        guard driver.state == .running else {
            throw SensorCLI.fail("the IMU did not start: \(driver.lostReason ?? "unknown reason")",
                       hint: "run `poise probe` to check the bus and the chip")
        }
        switch sensor {
        case .gyro: return try calibrateGyroscope(&driver, clock: &clock, pacer: pacer, guide: guide)
        case .accel: return try calibrateAccelerometer(&driver, clock: &clock, pacer: pacer, guide: guide)
        case .mag: return try calibrateMagnetometer(&driver, clock: &clock, pacer: pacer, guide: guide)
        }
    }

    func calibrateGyroscope<Bus>(_ driver: inout MPU9250<Bus>, clock: inout Double, pacer: SensorCLI.TickPacer<Bus>,
                                 guide: (inout Bus, CalibrationStep) -> Void) throws -> SensorCalibration {
        guide(&driver.bus, .holdStill(face: "+z", attitude: .identity))
        let seconds = Double(GyroscopeBiasCalibration.Settings.default.samples) / driver.settings.tickRate
        try prompt("Step 1/1: put the board down and keep it still for \(SensorCLI.rate(seconds)) s.")
        var calibration = GyroscopeBiasCalibration()
        SensorCLI.runTicks(&driver, calibration.settings.samples, clock: &clock, pacer: pacer) {
            calibration.add(gyroscope: $0.gyroscope, accelerometer: $0.accelerometer)
        }
        do {
            let bias = try calibration.bias()
            print("Gyroscope bias measured over \(calibration.gyroscope.count) samples.")
            return SensorCalibration(gyroscopeBias: bias)
        } catch {
            throw SensorCLI.fail(error.description)
        }
    }

    func calibrateAccelerometer<Bus>(_ driver: inout MPU9250<Bus>, clock: inout Double, pacer: SensorCLI.TickPacer<Bus>,
                                     guide: (inout Bus, CalibrationStep) -> Void) throws -> SensorCalibration {
        let faces: [(String, Quaternion)] = [
            ("+z (top face up)", .identity),
            ("-z (upside down)", Quaternion(axis: SIMD3(1, 0, 0), angle: .pi)),
            ("+x (right edge up)", Quaternion(axis: SIMD3(0, 1, 0), angle: -.pi / 2)),
            ("-x (left edge up)", Quaternion(axis: SIMD3(0, 1, 0), angle: .pi / 2)),
            ("+y (front edge up)", Quaternion(axis: SIMD3(1, 0, 0), angle: .pi / 2)),
            ("-y (back edge up)", Quaternion(axis: SIMD3(1, 0, 0), angle: -.pi / 2)),
        ]
        var poses: [SIMD3<Float>] = []
        for (index, face) in faces.enumerated() {
            guide(&driver.bus, .holdStill(face: face.0, attitude: face.1))
            try prompt("Step \(index + 1)/6: rest the board still with \(face.0).")
            SensorCLI.runTicks(&driver, driver.settings.ticks(0.5), clock: &clock, pacer: pacer)  // settle
            var statistics = VectorStatistics()
            SensorCLI.runTicks(&driver, driver.settings.ticks(1), clock: &clock, pacer: pacer) { statistics.add($0.accelerometer) }
            do { try AccelerometerSixPositionCalibration.checkResting(statistics) } catch {
                throw SensorCLI.fail(error.description)
            }
            print("  mean (m/s²): \(numbers(statistics.average))")
            poses.append(statistics.average)
        }
        do {
            let (offset, scale) = try AccelerometerSixPositionCalibration().solve(poses: poses)
            return SensorCalibration(accelerometerOffset: offset, accelerometerScale: scale)
        } catch {
            throw SensorCLI.fail(error.description)
        }
    }

    func calibrateMagnetometer<Bus>(_ driver: inout MPU9250<Bus>, clock: inout Double, pacer: SensorCLI.TickPacer<Bus>,
                                    guide: (inout Bus, CalibrationStep) -> Void) throws -> SensorCalibration {
        guard driver.hasMagnetometer else {
            throw SensorCLI.fail("no magnetometer: \(driver.magnetometerProblem ?? "the \(driver.model.map { "\($0)" } ?? "chip") has none")")
        }
        guide(&driver.bus, .tumble)
        try prompt("Step 1/1: turn the board slowly through all orientations for \(SensorCLI.fixed(seconds, 0)) s, away from iron.")
        var fields: [SIMD3<Float>] = []
        SensorCLI.runTicks(&driver, driver.settings.ticks(seconds), clock: &clock, pacer: pacer) {
            if $0.magnetometerIsNew, let field = $0.magnetometer { fields.append(field) }
        }
        return try fitMagnetometer(fields)
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

    /// One instruction to the person (or the simulated board).
    enum CalibrationStep {
        case holdStill(face: String, attitude: Quaternion)
        case tumble
    }

    /// Three numbers with four decimals.
    func numbers(_ v: SIMD3<Float>) -> String {
        [v.x, v.y, v.z].map { SensorCLI.fixed(Double($0), 4) }.joined(separator: " ")
    }
}
