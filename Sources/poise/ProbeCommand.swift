import PoiseDeviceTools
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
                                        address: target.simulatedChipAddress)
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
        let note: String
        if let file = target.file {
            note = calibration == .identity ? "Calibration: none in \(file)" : "Calibration: sensor.calibration from \(file) applied"
        } else {
            note = "Calibration: none (give --config FILE to apply its sensor.calibration)"
        }
        let probe = SensorProbe<Bus>(settings: target.settings, calibration: calibration, calibrationNote: note,
                                     log: DriverLog(SensorCLI.commandLogger()), pacer: pacer.wait)
        do throws(BenchFailure) {
            try probe.run(on: bus, samples: samples) { print($0) }
        } catch {
            throw SensorCLI.fail(error.message, hint: error.hint)
        }
    }
}
