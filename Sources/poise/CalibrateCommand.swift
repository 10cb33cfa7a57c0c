import ArgumentParser
import PoiseIO
import PoiseMath
import PoiseSensors

struct CalibrateCommand: ParsableCommand {
    enum Sensor: String, ExpressibleByArgument, CaseIterable {
        case gyro, accel, mag
    }

    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Measure gyroscope bias, accelerometer offset and scale, or magnetometer hard and soft iron.",
        discussion: """
            Guides you step by step and prints the parameters as plain numbers for your \
            configuration. gyro: keep the board still for 2 s. accel: rest it on each of its \
            six faces in turn (any order). mag: turn it slowly through all orientations, away \
            from iron. With --board sim the simulated board follows the instructions itself.

            Examples:
              poise calibrate gyro
              poise calibrate mag --seconds 60
              poise calibrate accel --board sim --yes
            """)

    @Argument(help: "The sensor to calibrate: gyro, accel or mag.")
    var sensor: Sensor

    @Option(help: "The board: a Linux I²C bus or the simulated MPU-9250.")
    var board: SensorCLI.Board = .linux

    @Option(help: "The I²C bus device.")
    var bus = "/dev/i2c-1"

    @Option(help: "The IMU's address: 0x68 (AD0 low) or 0x69 (AD0 high).")
    var address = SensorCLI.Address(0x68)

    @Option(help: "Seconds of turning for the magnetometer recording.")
    var seconds: Double = 30

    @Flag(name: [.customShort("y"), .long], help: "Do not wait for Enter between steps (non-interactive).")
    var yes = false

    func run() throws {
        var settings = MPU9250Settings.default
        settings.address = address.value
        switch board {
        case .sim:
            let chip = SimulatedMPU9250(motion: GuidedMotion(), errors: .typical, address: address.value, seed: 1)
            try calibrate(chip, settings: settings, pacer: .simulated) { bus, step in
                switch step {
                case .holdStill(_, let attitude): bus.motion = GuidedMotion(attitude: attitude)
                case .tumble: bus.motion = GuidedMotion(tumbling: true)
                }
            }
        case .linux:
            let linuxBus: LinuxI2CBus
            do {
                linuxBus = try LinuxI2CBus(path: bus)
            } catch {
                throw SensorCLI.fail(error.description, hint: error.setupHint)
            }
            defer { linuxBus.close() }
            try calibrate(linuxBus, settings: settings, pacer: .sleeping) { _, _ in }
        }
    }

    /// Prints the instruction and waits for Enter unless `--yes`.
    func prompt(_ text: String) throws {
        print(text + (yes ? "" : " Press Enter when ready."))
        if !yes, readLine() == nil {
            throw SensorCLI.fail("no input on stdin; pass --yes to run without prompts")
        }
    }

    func calibrate<Bus: I2CBus>(_ bus: Bus, settings: MPU9250Settings, pacer: SensorCLI.TickPacer<Bus>,
                                guide: (inout Bus, CalibrationStep) -> Void) throws {
        var driver = MPU9250(bus: bus, settings: settings, logger: SensorCLI.commandLogger())
        var clock = 0.0
        SensorCLI.runTicks(&driver, settings.ticks(settings.resetDelay) + 2, clock: &clock, pacer: pacer)
        guard driver.state == .running else {
            throw SensorCLI.fail("the IMU did not start: \(driver.lostReason ?? "unknown reason")",
                       hint: "run `poise probe` to check the bus and the chip")
        }
        switch sensor {
        case .gyro: try calibrateGyroscope(&driver, clock: &clock, pacer: pacer, guide: guide)
        case .accel: try calibrateAccelerometer(&driver, clock: &clock, pacer: pacer, guide: guide)
        case .mag: try calibrateMagnetometer(&driver, clock: &clock, pacer: pacer, guide: guide)
        }
    }

    func calibrateGyroscope<Bus>(_ driver: inout MPU9250<Bus>, clock: inout Double, pacer: SensorCLI.TickPacer<Bus>,
                                 guide: (inout Bus, CalibrationStep) -> Void) throws {
        guide(&driver.bus, .holdStill(face: "+z", attitude: .identity))
        try prompt("Step 1/1: put the board down and keep it still for 2 s.")
        var calibration = GyroscopeBiasCalibration()
        SensorCLI.runTicks(&driver, calibration.settings.samples, clock: &clock, pacer: pacer) {
            calibration.add(gyroscope: $0.gyroscope, accelerometer: $0.accelerometer)
        }
        do {
            let bias = try calibration.bias()
            print("Gyroscope bias measured over \(calibration.gyroscope.count) samples.")
            print("gyroscope bias (rad/s): \(numbers(bias))")
        } catch {
            throw SensorCLI.fail(error.description)
        }
    }

    func calibrateAccelerometer<Bus>(_ driver: inout MPU9250<Bus>, clock: inout Double, pacer: SensorCLI.TickPacer<Bus>,
                                     guide: (inout Bus, CalibrationStep) -> Void) throws {
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
            let deviation = statistics.standardDeviation.max()
            guard deviation < 0.1 else {
                throw SensorCLI.fail(CalibrationError.moving(sensor: "accelerometer", standardDeviation: deviation,
                                                   threshold: 0.1, unit: "m/s²").description)
            }
            print("  mean (m/s²): \(numbers(statistics.average))")
            poses.append(statistics.average)
        }
        do {
            let (offset, scale) = try AccelerometerSixPositionCalibration().solve(poses: poses)
            print("accelerometer offset (m/s²): \(numbers(offset))")
            print("accelerometer scale: \(numbers(scale))")
        } catch {
            throw SensorCLI.fail(error.description)
        }
    }

    func calibrateMagnetometer<Bus>(_ driver: inout MPU9250<Bus>, clock: inout Double, pacer: SensorCLI.TickPacer<Bus>,
                                    guide: (inout Bus, CalibrationStep) -> Void) throws {
        guard driver.hasMagnetometer else {
            throw SensorCLI.fail("no magnetometer: \(driver.magnetometerProblem ?? "the \(driver.model.map { "\($0)" } ?? "chip") has none")")
        }
        guide(&driver.bus, .tumble)
        try prompt("Step 1/1: turn the board slowly through all orientations for \(SensorCLI.fixed(seconds, 0)) s, away from iron.")
        var fields: [SIMD3<Float>] = []
        SensorCLI.runTicks(&driver, driver.settings.ticks(seconds), clock: &clock, pacer: pacer) {
            if $0.magnetometerIsNew, let field = $0.magnetometer { fields.append(field) }
        }
        do {
            let fit = try MagnetometerCalibration.fit(fields)
            print("Ellipsoid fitted to \(fields.count) samples: field \(SensorCLI.fixed(Double(fit.fieldStrength), 1)) µT, residual \(SensorCLI.fixed(Double(fit.residual), 2)) µT RMS.")
            print("magnetometer hard iron (µT): \(numbers(fit.hardIron))")
            print("magnetometer soft iron row 1: \(numbers(fit.softIron.0))")
            print("magnetometer soft iron row 2: \(numbers(fit.softIron.1))")
            print("magnetometer soft iron row 3: \(numbers(fit.softIron.2))")
        } catch {
            throw SensorCLI.fail(error.description)
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
