import PoiseFlightCore
import PoiseHAL
import PoiseLinux
import PoiseSensors
import PoiseSimulation
import ArgumentParser
import PoiseLogging

struct ProbeCommand: PoiseCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Scan the I²C bus, identify the IMU and magnetometer, and print a few samples.",
        discussion: """
            Lists every address that answers (like i2cdetect), reads WHO_AM_I at the IMU's \
            address and names the chip, checks for the AK8963 magnetometer behind the \
            MPU-9250's bypass, then configures the chip and prints samples in SI units.

            With --config the board, bus, address, mounting, ranges and rates come from the \
            file (flags override them) and the samples are corrected by its sensor.calibration.

            Examples:
              poise probe
              poise probe --bus /dev/i2c-1 --address 0x69
              poise probe --config boards/raspberry-pi-mpu9250.yaml
              poise probe --board sim
            """)

    @OptionGroup var options: SensorOptions

    @Option(parsing: .unconditional, help: "How many samples to print.")
    var samples = 5

    func validate() throws {
        if samples < 0 { throw ValidationError("--samples must be 0 or more, not \(samples)") }
    }

    func execute() throws {
        let target = try options.target()
        let calibration = SensorCalibration(configuration: target.configuration)
        switch target.board {
        case .sim:
            let chip = SimulatedMPU9250(motion: StaticPose(), errors: .typical, mounting: target.settings.mounting,
                                        address: target.simulatedChipAddress, seed: 1)
            try probe(chip, target: target, calibration: calibration, pacer: .simulated)
        case .linux:
            let linuxBus: LinuxI2CBus
            do {
                linuxBus = try LinuxI2CBus(path: target.bus)
            } catch {
                throw SensorCLI.fail(error.description, hint: error.setupHint)
            }
            defer { linuxBus.close() }
            try probe(linuxBus, target: target, calibration: calibration, pacer: .sleeping)
        }
    }

    func probe<Bus: I2CBus>(_ bus: Bus, target: SensorCLI.Target, calibration: SensorCalibration,
                            pacer: SensorCLI.TickPacer<Bus>) throws {
        var bus = bus
        let settings = target.settings
        print("Bus \(bus.path) (\(bus.functionality))")
        let scan = I2CScan(bus: &bus)
        print(scan.grid)
        guard scan.results[settings.address] != .absent else {
            let others = scan.present.map(SensorCLI.hex).joined(separator: ", ")
            // What the kernel says when the chip's register is read anyway.
            var kernel = ""
            do { _ = try bus.readRegister(address: settings.address, register: MPU9250Register.whoAmI.rawValue) } catch {
                kernel = " (reading WHO_AM_I: \(error.description))"
            }
            throw SensorCLI.fail("no device answered at \(SensorCLI.hex(settings.address)) on \(bus.path)\(kernel)"
                       + (others.isEmpty ? "; nothing answered at all" : "; devices at \(others)"),
                       hint: "check the wiring (docs/wiring.md) and the address: AD0 low = 0x68, high = 0x69")
        }
        let whoAmI: UInt8
        do {
            whoAmI = try bus.readRegister(address: settings.address, register: MPU9250Register.whoAmI.rawValue)
        } catch {
            throw SensorCLI.fail(error.description, hint: error.setupHint)
        }
        let model = InvenSenseModel(whoAmI: whoAmI)
        print("\(SensorCLI.hex(settings.address)): WHO_AM_I \(SensorCLI.hex(whoAmI)) → \(model)")
        guard model.isCompatible else {
            throw SensorCLI.fail("the device at \(SensorCLI.hex(settings.address)) is not an MPU-9250 or a relative (WHO_AM_I \(SensorCLI.hex(whoAmI)))")
        }

        var driver = MPU9250(bus: bus, settings: settings, logger: DriverLog(SensorCLI.commandLogger()))
        driver.calibration = calibration
        var clock = 0.0
        SensorCLI.runTicks(&driver, settings.ticks(settings.resetDelay) + 2, clock: &clock, pacer: pacer)
        guard driver.state == .running else {
            throw SensorCLI.fail("the chip did not start: \(driver.lostReason ?? "unknown reason")")
        }
        if let asa = driver.magnetometerSensitivityAdjustment {
            print("Magnetometer: AK8963 at \(SensorCLI.hex(AK8963.address)) (WIA 0x48), ASA \(SensorCLI.hex(asa.x)) \(SensorCLI.hex(asa.y)) \(SensorCLI.hex(asa.z))")
        } else if !model.hasMagnetometer {
            print("Magnetometer: none (the \(model) has no AK8963); running 6D")
        } else {
            print("Magnetometer: none (\(driver.magnetometerProblem ?? "not found")); running 6D")
        }
        print("Settings: ±\(Int(settings.accelerometerRange.g)) g, ±\(Int(settings.gyroscopeRange.degreesPerSecond)) °/s, output \(SensorCLI.rate(settings.outputRate)) Hz, read at \(SensorCLI.rate(settings.tickRate)) Hz, mounting \(settings.mounting)")
        if let file = target.file {
            print(calibration == .identity ? "Calibration: none in \(file)"
                  : "Calibration: sensor.calibration from \(file) applied")
        } else {
            print("Calibration: none (give --config FILE to apply its sensor.calibration)")
        }
        print(SensorCLI.row(["t s", "ax m/s²", "ay m/s²", "az m/s²", "gx rad/s", "gy rad/s", "gz rad/s", "mx µT", "my µT", "mz µT", "T °C"]))
        var printed = 0
        let start = clock
        while printed < samples {
            var newest: SensorSample?
            SensorCLI.runTicks(&driver, 10, clock: &clock, pacer: pacer) { newest = $0 }
            guard let sample = newest else {
                throw SensorCLI.fail("reading samples failed: \(driver.lostReason ?? "no data")")
            }
            let m = sample.magnetometer
            print(SensorCLI.row([SensorCLI.fixed(clock - start, 2)] + [sample.accelerometer.x, sample.accelerometer.y, sample.accelerometer.z].map { SensorCLI.fixed(Double($0), 3) }
                      + [sample.gyroscope.x, sample.gyroscope.y, sample.gyroscope.z].map { SensorCLI.fixed(Double($0), 4) }
                      + (m.map { [$0.x, $0.y, $0.z].map { SensorCLI.fixed(Double($0), 1) } } ?? ["-", "-", "-"])
                      + [SensorCLI.fixed(Double(sample.temperature), 1)]))
            printed += 1
        }
    }
}

