import PoiseDeviceSettings
import PoiseFlightCore
import PoiseHAL
import PoiseMath
import PoiseSensors

/// The live calibrations a user runs with the board in hand — `calibrate gyro|accel|mag` of
/// `poise` and of `poise-board`, written once: the driver started without calibration (the
/// solvers need raw readings), the prompts, the measurement, the report and the
/// `sensor.calibration` YAML to paste. Text goes line by line to `say`; a prompt goes to
/// `prompt`, which waits for the person (or not); a failure is thrown with what to check.
public struct GuidedCalibration<Bus: I2CBus> {
    public typealias Sensor = CalibrationSensor
    public typealias Step = CalibrationStep

    /// Waits out one tick before the next read: a real bus sleeps, a simulated one advances its clock.
    public typealias Pacer = (_ bus: inout Bus, _ time: Double, _ period: Double) -> Void

    public var sensor: Sensor
    public var settings: MPU9250Settings
    /// Seconds of turning for the magnetometer.
    public var seconds: Double
    /// The program's name, for the hint that names its probe command.
    public var programName: String
    public var log: DriverLog
    public var pacer: Pacer
    public var say: (String) -> Void
    public var prompt: (String) throws(BenchFailure) -> Void

    public init(sensor: Sensor, settings: MPU9250Settings, seconds: Double = 30, programName: String = "poise",
                log: DriverLog = .silent, pacer: @escaping Pacer, say: @escaping (String) -> Void,
                prompt: @escaping (String) throws(BenchFailure) -> Void) {
        self.sensor = sensor
        self.settings = settings
        self.seconds = seconds
        self.programName = programName
        self.log = log
        self.pacer = pacer
        self.say = say
        self.prompt = prompt
    }

    /// Starts the driver on `bus` and runs the steps; the result is in the body frame.
    /// `guide` hears each instruction (a simulated board follows it).
    public func measure(on bus: Bus, guide: (inout Bus, Step) -> Void = { _, _ in }) throws(BenchFailure) -> SensorCalibration {
        var driver = MPU9250(bus: bus, settings: settings, logger: log)
        var clock = 0.0
        runTicks(&driver, settings.ticks(settings.resetDelay) + 2, clock: &clock)
        guard driver.state == .running else {
            throw BenchFailure("the IMU did not start: " + (driver.lostReason ?? "unknown reason"),
                               hint: "run `" + programName + " probe` to check the bus and the chip")
        }
        switch sensor {
        case .gyro: return try gyroscope(&driver, clock: &clock, guide: guide)
        case .accel: return try accelerometer(&driver, clock: &clock, guide: guide)
        case .mag: return try magnetometer(&driver, clock: &clock, guide: guide)
        }
    }

    /// Runs `ticks` ticks, handing every sample to `each`.
    func runTicks(_ driver: inout MPU9250<Bus>, _ ticks: Int, clock: inout Double, _ each: (SensorSample) -> Void = { _ in }) {
        let period = 1 / driver.settings.tickRate
        for _ in 0..<ticks {
            clock += period
            pacer(&driver.bus, clock, period)
            driver.tick(each)
        }
    }

    func gyroscope(_ driver: inout MPU9250<Bus>, clock: inout Double, guide: (inout Bus, Step) -> Void) throws(BenchFailure) -> SensorCalibration {
        guide(&driver.bus, .holdStill(face: "+z", attitude: .identity))
        let seconds = Double(GyroscopeBiasCalibration.Settings.default.samples) / driver.settings.tickRate
        try prompt("Step 1/1: put the board down and keep it still for " + ReportFormat.rate(seconds) + " s.")
        var calibration = GyroscopeBiasCalibration()
        runTicks(&driver, calibration.settings.samples, clock: &clock) {
            calibration.add(gyroscope: $0.gyroscope, accelerometer: $0.accelerometer)
        }
        do throws(CalibrationError) {
            let bias = try calibration.bias()
            say("Gyroscope bias measured over " + String(calibration.gyroscope.count) + " samples.")
            return SensorCalibration(gyroscopeBias: bias)
        } catch {
            throw BenchFailure(error.description)
        }
    }

    func accelerometer(_ driver: inout MPU9250<Bus>, clock: inout Double, guide: (inout Bus, Step) -> Void) throws(BenchFailure) -> SensorCalibration {
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
            try prompt("Step " + String(index + 1) + "/6: rest the board still with " + face.0 + ".")
            runTicks(&driver, driver.settings.ticks(0.5), clock: &clock)  // settle
            var statistics = VectorStatistics()
            runTicks(&driver, driver.settings.ticks(1), clock: &clock) { statistics.add($0.accelerometer) }
            do throws(CalibrationError) { try AccelerometerSixPositionCalibration.checkResting(statistics) } catch {
                throw BenchFailure(error.description)
            }
            say("  mean (m/s²): " + Self.numbers(statistics.average))
            poses.append(statistics.average)
        }
        do throws(CalibrationError) {
            let (offset, scale) = try AccelerometerSixPositionCalibration().solve(poses: poses)
            return SensorCalibration(accelerometerOffset: offset, accelerometerScale: scale)
        } catch {
            throw BenchFailure(error.description)
        }
    }

    func magnetometer(_ driver: inout MPU9250<Bus>, clock: inout Double, guide: (inout Bus, Step) -> Void) throws(BenchFailure) -> SensorCalibration {
        guard driver.hasMagnetometer else {
            let chip = driver.model.map { $0.description } ?? "chip"
            throw BenchFailure("no magnetometer: " + (driver.magnetometerProblem ?? "the " + chip + " has none"))
        }
        guide(&driver.bus, .tumble)
        try prompt("Step 1/1: turn the board slowly through all orientations for " + ReportFormat.fixed(seconds, 0)
                   + " s, away from iron.")
        var fields: [SIMD3<Float>] = []
        runTicks(&driver, driver.settings.ticks(seconds), clock: &clock) {
            if $0.magnetometerIsNew, let field = $0.magnetometer { fields.append(field) }
        }
        return try fitMagnetometer(fields)
    }

    /// The ellipsoid fit with its report; the fit refuses samples that cover too few directions.
    public func fitMagnetometer(_ fields: [SIMD3<Float>]) throws(BenchFailure) -> SensorCalibration {
        do throws(CalibrationError) {
            let fit = try MagnetometerCalibration.fit(fields)
            say("Ellipsoid fitted to " + String(fields.count) + " samples: field " + ReportFormat.fixed(Double(fit.fieldStrength), 1)
                + " µT, residual " + ReportFormat.fixed(Double(fit.residual), 2) + " µT RMS.")
            try fit.checkCoverage(fields)
            return SensorCalibration.identity.with(fit)
        } catch {
            throw BenchFailure(error.description)
        }
    }

    /// The result's lines (chip frame: `mounting` undone), as `calibrate` prints them before the YAML.
    public func resultLines(_ measured: SensorCalibration, mounting: Mounting) -> [String] {
        let chip = measured.inChipFrame(mounting)
        switch sensor {
        case .gyro:
            return ["gyroscope bias (rad/s): " + Self.numbers(chip.gyroscopeBias)]
        case .accel:
            return ["accelerometer offset (m/s²): " + Self.numbers(chip.accelerometerOffset),
                    "accelerometer scale: " + Self.numbers(chip.accelerometerScale)]
        case .mag:
            return ["magnetometer hard iron (µT): " + Self.numbers(chip.magnetometerHardIron),
                    "magnetometer soft iron row 1: " + Self.numbers(chip.magnetometerSoftIron.0),
                    "magnetometer soft iron row 2: " + Self.numbers(chip.magnetometerSoftIron.1),
                    "magnetometer soft iron row 3: " + Self.numbers(chip.magnetometerSoftIron.2)]
        }
    }

    /// Three numbers with four decimals.
    public static func numbers(_ v: SIMD3<Float>) -> String {
        ReportFormat.fixed(Double(v.x), 4) + " " + ReportFormat.fixed(Double(v.y), 4) + " " + ReportFormat.fixed(Double(v.z), 4)
    }
}

/// Which sensor a guided calibration calibrates.
public enum CalibrationSensor: Sendable {
    case gyro, accel, mag
}

/// One instruction to the person (or to a simulated board, which follows it itself).
public enum CalibrationStep {
    case holdStill(face: String, attitude: Quaternion)
    case tumble
}

/// The `sensor.calibration` lines of a measured calibration, as a configuration file holds
/// them (chip frame), to paste: the text `poise calibrate` prints, written without the
/// configuration's YAML library so the board prints it too.
public enum CalibrationYAML {
    /// "chip frame = body frame", or "chip frame, mounting M undone".
    public static func frame(_ mounting: Mounting) -> String {
        mounting == .identity ? "chip frame = body frame" : "chip frame, mounting " + mounting.description + " undone"
    }

    /// The `sensor:` / `  calibration:` block with the keys of `sensor`, each line ending in a newline.
    public static func snippet(_ measured: SensorCalibration, sensor: CalibrationSensor, mounting: Mounting) -> String {
        let chip = measured.inChipFrame(mounting)
        var text = "sensor:\n  calibration:\n"
        switch sensor {
        case .gyro:
            text += "    gyroscope_bias: " + vector(chip.gyroscopeBias) + "\n"
        case .accel:
            text += "    accelerometer_offset: " + vector(chip.accelerometerOffset) + "\n"
            text += "    accelerometer_scale: " + vector(chip.accelerometerScale) + "\n"
        case .mag:
            let w = chip.magnetometerSoftIron
            text += "    magnetometer_hard_iron: " + vector(chip.magnetometerHardIron) + "\n"
            text += "    magnetometer_soft_iron: [" + vector(w.0) + ", " + vector(w.1) + ", " + vector(w.2) + "]\n"
        }
        return text
    }

    /// `[x, y, z]`.
    static func vector(_ v: SIMD3<Float>) -> String {
        "[" + number(v.x) + ", " + number(v.y) + ", " + number(v.z) + "]"
    }

    /// The shortest decimal that reads back to `value`, written as the configuration writes
    /// the `Double` of that decimal: as the `Float`'s own text, except that a `Double` below
    /// 2⁵³ is written out in full where a `Float` from 2²⁴ on takes an exponent
    /// (`1.2e+08` → `120000000.0`).
    public static func number(_ value: Float) -> String {
        let text = value.description
        guard value.isFinite, value.magnitude < 0x1p53, let e = text.firstIndex(of: "e") else { return text }
        let sign = text[text.index(after: e)]
        guard sign == "+", let exponent = Int(text[text.index(e, offsetBy: 2)...]) else { return text }
        var mantissa = Substring(text[..<e])
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa = mantissa.dropFirst() }
        var whole = ""
        var digits = ""
        if let dot = mantissa.firstIndex(of: ".") {
            whole = String(mantissa[..<dot])
            digits = whole + String(mantissa[mantissa.index(after: dot)...])
        } else {
            whole = String(mantissa)
            digits = whole
        }
        let count = whole.count + exponent
        while digits.count < count { digits += "0" }
        var fraction = String(digits.dropFirst(count))
        if fraction.isEmpty { fraction = "0" }
        return (negative ? "-" : "") + String(digits.prefix(count)) + "." + fraction
    }
}
