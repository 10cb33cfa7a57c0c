import ArgumentParser
import Logging
import PoiseIO
import PoiseSensors
#if canImport(Glibc)
import Glibc
#endif

struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Scan the I²C bus, identify the IMU and magnetometer, and print a few samples.",
        discussion: """
            Lists every address that answers (like i2cdetect), reads WHO_AM_I at the IMU's \
            address and names the chip, checks for the AK8963 magnetometer behind the \
            MPU-9250's bypass, then configures the chip and prints samples in SI units.

            Examples:
              poise probe
              poise probe --bus /dev/i2c-1 --address 0x69
              poise probe --board sim
            """)

    @Option(help: "The board: a Linux I²C bus or the simulated MPU-9250.")
    var board: SensorCLI.Board = .linux

    @Option(help: "The I²C bus device.")
    var bus = "/dev/i2c-1"

    @Option(help: "The IMU's address: 0x68 (AD0 low) or 0x69 (AD0 high).")
    var address = SensorCLI.Address(0x68)

    @Option(help: "How many samples to print.")
    var samples = 5

    func run() throws {
        var settings = MPU9250Settings.default
        settings.address = address.value
        settings.tickRate = 100
        switch board {
        case .sim:
            let chip = SimulatedMPU9250(motion: StaticPose(), errors: .typical, address: address.value, seed: 1)
            try probe(chip, settings: settings, pacer: .simulated)
        case .linux:
            let linuxBus: LinuxI2CBus
            do {
                linuxBus = try LinuxI2CBus(path: bus)
            } catch {
                throw SensorCLI.fail(error.description, hint: error.setupHint)
            }
            defer { linuxBus.close() }
            try probe(linuxBus, settings: settings, pacer: .sleeping)
        }
    }

    func probe<Bus: I2CBus>(_ bus: Bus, settings: MPU9250Settings, pacer: SensorCLI.TickPacer<Bus>) throws {
        var bus = bus
        print("Bus \(bus.path) (\(bus.functionality))")
        let scan = I2CScan(bus: &bus)
        print(scan.grid)
        guard scan.results[settings.address] != .absent else {
            let others = scan.present.map(SensorCLI.hex).joined(separator: ", ")
            throw SensorCLI.fail("no device answered at \(SensorCLI.hex(settings.address)) on \(bus.path)"
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

        var driver = MPU9250(bus: bus, settings: settings, logger: SensorCLI.commandLogger())
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
        print("Settings: ±\(Int(settings.accelerometerRange.g)) g, ±\(Int(settings.gyroscopeRange.degreesPerSecond)) °/s, output \(Int(settings.outputRate)) Hz, read at \(Int(settings.tickRate)) Hz")
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

/// Pieces shared by `poise probe` and `poise calibrate` (namespaced to keep the executable's
/// global names free for other commands).
enum SensorCLI {
    /// Which board the sensor commands talk to.
    enum Board: String, ExpressibleByArgument, CaseIterable {
        case linux, sim
    }

    /// A 7-bit I²C address given as `0x68` or `104`.
    struct Address: ExpressibleByArgument {
        var value: UInt8

        init?(argument: String) {
            let parsed = argument.lowercased().hasPrefix("0x")
                ? UInt8(argument.dropFirst(2), radix: 16) : UInt8(argument, radix: 10)
            guard let parsed, I2CScan.addresses.contains(parsed) else { return nil }
            value = parsed
        }

        init(_ value: UInt8) { self.value = value }

        var defaultValueDescription: String { hex(value) }
    }

    static func hex(_ value: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x" + String(digits[Int(value >> 4)]) + String(digits[Int(value & 0xF)])
    }

    /// Prints `poise: message` (and a hint) to stderr and fails with exit code 1.
    static func fail(_ message: String, hint: String? = nil) -> ExitCode {
        var text = "poise: \(message)\n"
        if let hint { text += "poise: \(hint)\n" }
        var bytes = Array(text.utf8)
        _ = write(2, &bytes, bytes.count)
        return ExitCode(1)
    }

    /// Driver logs go to stderr, warnings and above, so stdout stays the report.
    static func commandLogger() -> Logger {
        var logger = Logger(label: "poise.sensors") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .warning
        return logger
    }

    /// Paces ticks: simulated boards advance their clock, real ones sleep one period.
    struct TickPacer<Bus: I2CBus> {
        var wait: (inout Bus, _ time: Double, _ period: Double) -> Void

        static var sleeping: TickPacer {
            TickPacer { _, _, period in
                var pause = timespec(tv_sec: 0, tv_nsec: Int(period * 1e9))
                nanosleep(&pause, nil)
            }
        }
    }

    /// Runs `ticks` ticks, handing every sample to `each`.
    static func runTicks<Bus: I2CBus>(_ driver: inout MPU9250<Bus>, _ ticks: Int, clock: inout Double, pacer: TickPacer<Bus>,
                               _ each: (SensorSample) -> Void = { _ in }) {
        let period = 1 / driver.settings.tickRate
        for _ in 0..<ticks {
            clock += period
            pacer.wait(&driver.bus, clock, period)
            driver.tick(each)
        }
    }

    /// Right-aligned columns, 9 characters each.
    static func row(_ cells: [String]) -> String {
        cells.map { String(repeating: " ", count: max(0, 9 - $0.count)) + $0 }.joined(separator: " ")
    }

    /// `value` with exactly `digits` decimals, without Foundation.
    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int(scaled / scale)
        var fraction = String(Int(scaled.truncatingRemainder(dividingBy: scale)))
        while fraction.count < digits { fraction = "0" + fraction }
        let sign = value < 0 && scaled != 0 ? "-" : ""
        return digits == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }
}

extension SensorCLI.TickPacer where Bus: SimulatedClock {
    static var simulated: SensorCLI.TickPacer<Bus> { .init { bus, time, _ in bus.advance(to: time) } }
}
