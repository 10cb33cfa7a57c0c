import PoiseDeviceSettings
import PoiseFlightCore
import PoiseHAL
import PoiseSensors

/// `probe`: scans the I²C bus like `i2cdetect`, names the chip at the IMU's address from
/// WHO_AM_I, finds the AK8963 behind the MPU-9250's bypass, starts the chip with the settings
/// and prints samples in SI units (calibrated when a calibration is given). The report goes
/// line by line to `print`; a failure is thrown with what to check.
public struct SensorProbe<Bus: I2CBus> {
    /// Waits out one tick before the next read: a real bus sleeps, a simulated one advances its clock.
    public typealias Pacer = (_ bus: inout Bus, _ time: Double, _ period: Double) -> Void

    public var settings: MPU9250Settings
    public var calibration: SensorCalibration
    /// The report's calibration line: where the calibration came from.
    public var calibrationNote: String
    public var pacer: Pacer
    public var log: DriverLog

    public init(settings: MPU9250Settings, calibration: SensorCalibration = .identity, calibrationNote: String,
                log: DriverLog = .silent, pacer: @escaping Pacer) {
        self.settings = settings
        self.calibration = calibration
        self.calibrationNote = calibrationNote
        self.log = log
        self.pacer = pacer
    }

    public func run(on bus: Bus, samples: Int, print: (String) -> Void) throws(BenchFailure) {
        var bus = bus
        let hex = ReportFormat.hex
        print("Bus " + bus.path + " (" + bus.functionality.description + ")")
        let scan = I2CScan(bus: &bus)
        print(scan.grid)
        guard scan.results[settings.address] != .absent else {
            var others = ""
            for address in scan.present { others += (others.isEmpty ? "" : ", ") + hex(address) }
            // What the kernel says when the chip's register is read anyway.
            var kernel = ""
            do throws(I2CError) {
                _ = try bus.readRegister(address: settings.address, register: MPU9250Register.whoAmI.rawValue)
            } catch {
                kernel = " (reading WHO_AM_I: " + error.description + ")"
            }
            throw BenchFailure("no device answered at " + hex(settings.address) + " on " + bus.path + kernel
                               + (others.isEmpty ? "; nothing answered at all" : "; devices at " + others),
                               hint: "check the wiring (docs/wiring.md) and the address: AD0 low = 0x68, high = 0x69")
        }
        let whoAmI: UInt8
        do throws(I2CError) {
            whoAmI = try bus.readRegister(address: settings.address, register: MPU9250Register.whoAmI.rawValue)
        } catch {
            throw BenchFailure(error.description, hint: error.setupHint)
        }
        let model = InvenSenseModel(whoAmI: whoAmI)
        print(hex(settings.address) + ": WHO_AM_I " + hex(whoAmI) + " → " + model.description)
        guard model.isCompatible else {
            throw BenchFailure("the device at " + hex(settings.address) + " is not an MPU-9250 or a relative (WHO_AM_I "
                               + hex(whoAmI) + ")")
        }
        var driver = MPU9250(bus: bus, settings: settings, logger: log)
        driver.calibration = calibration
        var clock = 0.0
        runTicks(&driver, settings.ticks(settings.resetDelay) + 2, clock: &clock) { _ in }
        guard driver.state == .running else {
            throw BenchFailure("the chip did not start: " + (driver.lostReason ?? "unknown reason"))
        }
        if let asa = driver.magnetometerSensitivityAdjustment {
            print("Magnetometer: AK8963 at " + hex(AK8963.address) + " (WIA 0x48), ASA " + hex(asa.x) + " " + hex(asa.y)
                  + " " + hex(asa.z))
        } else if !model.hasMagnetometer {
            print("Magnetometer: none (the " + model.description + " has no AK8963); running 6D")
        } else {
            print("Magnetometer: none (" + (driver.magnetometerProblem ?? "not found") + "); running 6D")
        }
        print("Settings: ±" + String(Int(settings.accelerometerRange.g)) + " g, ±"
              + String(Int(settings.gyroscopeRange.degreesPerSecond)) + " °/s, output " + ReportFormat.rate(settings.outputRate)
              + " Hz, read at " + ReportFormat.rate(settings.tickRate) + " Hz, mounting " + settings.mounting.description)
        print(calibrationNote)
        print(ReportFormat.row(["t s", "ax m/s²", "ay m/s²", "az m/s²", "gx rad/s", "gy rad/s", "gz rad/s", "mx µT", "my µT",
                                "mz µT", "T °C"]))
        let start = clock
        for _ in 0..<samples {
            var newest: SensorSample?
            runTicks(&driver, 10, clock: &clock) { newest = $0 }
            guard let sample = newest else {
                throw BenchFailure("reading samples failed: " + (driver.lostReason ?? "no data"))
            }
            print(ReportFormat.row(Self.cells(sample, time: clock - start)))
        }
    }

    /// One sample's columns: time, accelerometer (3 decimals), gyroscope (4), magnetometer (1, or `-`), temperature.
    static func cells(_ sample: SensorSample, time: Double) -> [String] {
        var cells = [ReportFormat.fixed(time, 2)]
        for value in [sample.accelerometer.x, sample.accelerometer.y, sample.accelerometer.z] {
            cells.append(ReportFormat.fixed(Double(value), 3))
        }
        for value in [sample.gyroscope.x, sample.gyroscope.y, sample.gyroscope.z] {
            cells.append(ReportFormat.fixed(Double(value), 4))
        }
        if let m = sample.magnetometer {
            for value in [m.x, m.y, m.z] { cells.append(ReportFormat.fixed(Double(value), 1)) }
        } else {
            cells += ["-", "-", "-"]
        }
        cells.append(ReportFormat.fixed(Double(sample.temperature), 1))
        return cells
    }

    /// Runs `ticks` ticks of the driver, handing every sample to `each`.
    public func runTicks(_ driver: inout MPU9250<Bus>, _ ticks: Int, clock: inout Double, _ each: (SensorSample) -> Void) {
        let period = 1 / driver.settings.tickRate
        for _ in 0..<ticks {
            clock += period
            pacer(&driver.bus, clock, period)
            driver.tick(each)
        }
    }
}
