import ArgumentParser
import Foundation
import PoiseConfig
import PoiseDeviceTools
import PoiseFlightCore
import PoiseHAL
import PoiseLinux
import PoiseOutputs
import PoiseSimulation

/// `poise safe`: drives every configured output to its safe value and exits.
struct SafeCommand: PoiseCommand {
    static let configuration = CommandConfiguration(
        commandName: "safe",
        abstract: "Drive every configured output to its safe value, then exit.",
        discussion: """
            A crash or SIGKILL runs no handlers, and a sysfs PWM channel keeps pulsing after \
            its process dies. This command opens each output of the configuration on its own, \
            sets its safe value and lets it go: GPIO lines are released at their safe level, \
            sysfs PWM channels stay exported and enabled at their safe pulse (disabled when the \
            safe duty is 0), and the PCA9685 keeps its safe pulses (ALL_LED_OFF when every one \
            is 0). It prints one line per channel and exits 0, or 1 when any output could not \
            be made safe (each failure is printed as `poise: output NAME (WHERE): reason`); the \
            other outputs are made safe regardless. With `board.kind: sim` it runs against the \
            simulated hardware.

            Run it from the service unit so it happens however the loop ends:
              [Service]
              ExecStart=/usr/local/bin/poise run --config /etc/poise/poise.yaml
              ExecStopPost=/usr/local/bin/poise safe --config /etc/poise/poise.yaml

            Examples:
              poise safe --config boards/raspberry-pi-mpu9250.yaml
              sudo poise safe --config /etc/poise/poise.yaml
            """)

    @Option(help: "The configuration whose outputs to make safe.")
    var config: String

    func execute() throws {
        let configuration: PoiseConfiguration
        do {
            configuration = try PoiseConfiguration.load(path: config)
        } catch {
            throw CLIError.asIs(error.description)
        }
        let settings = OutputBankSettings(configuration: configuration)
        guard !settings.channels.isEmpty else {
            print("\(config): no outputs configured")
            return
        }
        let failures: [OutputError]
        let lines: [String]
        switch configuration.board.kind {
        case .linux:
            var bus: LinuxI2CBus? = nil
            var busProblem: OutputError? = nil
            if settings.usesPCA9685 {
                do { bus = try LinuxI2CBus(path: configuration.board.i2cBus) } catch {
                    busProblem = OutputError(channel: "PCA9685", place: configuration.board.i2cBus, reason: error.description)
                }
            }
            (lines, failures) = OutputSafing.makeSafe(settings, gpio: LinuxGPIODevice(), files: LinuxPWMFiles(), bus: &bus,
                                                      busProblem: busProblem)
            bus?.close()
        case .sim:
            var bus = SimulatedI2CBus(imu: SimulatedMPU9250(motion: StaticPose()), pca9685: SimulatedPCA9685(
                address: UInt8(configuration.outputs.pca9685.address)))
            (lines, failures) = OutputSafing.makeSafe(settings, gpio: SimulatedGPIODevice(for: settings),
                                                      files: SimulatedPWMFiles(for: settings), bus: &bus)
        }
        for line in lines { print(line) }
        if !failures.isEmpty { throw CLIError(problems: failures.map { "\($0)" }) }
    }
}
