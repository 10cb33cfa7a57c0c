import PoiseConfig
import PoiseDeviceSettings
import PoiseDeviceTools
import PoiseFlightCore
import PoiseHAL
import PoiseSensors
import PoiseSimulation
import PoiseTraces
import ArgumentParser
import Foundation
import Logging

/// Pieces shared by `poise probe` and `poise calibrate` (namespaced to keep the executable's
/// global names free for other commands).
enum SensorCLI {
    /// Which board the sensor commands talk to.
    enum Board: String, ExpressibleByArgument, CaseIterable {
        case linux, sim
    }

    /// Where the sensor is and how to run it, resolved from the file and the flags.
    struct Target {
        var board: Board
        var bus: String
        var settings: MPU9250Settings
        var configuration: PoiseConfiguration
        /// Where the simulated chip answers: its AD0 pin as the configuration wires it
        /// (board.address, 0x68 or 0x69), whatever address `--address` looks at.
        var simulatedChipAddress: UInt8
        /// The file it came from, if any.
        var file: String?
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

    static func hex(_ value: UInt8) -> String { ReportFormat.hex(value) }

    /// A failure printed as `poise: message` (and `poise: hint`), exit status 1.
    static func fail(_ message: String, hint: String? = nil) -> CLIError {
        CLIError(problems: [message] + (hint.map { [$0] } ?? []))
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

    /// A rate in Hz: whole numbers plain, others with one decimal (333.3).
    static func rate(_ hertz: Double) -> String { ReportFormat.rate(hertz) }

    /// `value` with exactly `digits` decimals, without Foundation.
    static func fixed(_ value: Double, _ digits: Int) -> String { ReportFormat.fixed(value, digits) }
}

extension SensorCLI.TickPacer where Bus: SimulatedClock {
    static var simulated: SensorCLI.TickPacer<Bus> { .init { bus, time, _ in bus.advance(to: time) } }
}

/// The options `poise probe` and `poise calibrate` share: a configuration file for the board
/// and sensor settings, and flags that override it.
struct SensorOptions: ParsableArguments {
    @Option(help: "Configuration file (YAML): board, mounting, ranges, rates and calibration; the flags below override it.")
    var config: String?

    @Option(help: "The board: a Linux I²C bus or the simulated MPU-9250 (default: the config's board.kind, else linux).")
    var board: SensorCLI.Board?

    @Option(help: "The I²C bus device (default: the config's board.i2c_bus, else /dev/i2c-1).")
    var bus: String?

    @Option(parsing: .unconditional, help: "The IMU's address: 0x68 (AD0 low) or 0x69 (AD0 high) (default: the config's board.address, else 0x68).")
    var address: SensorCLI.Address?

    /// The file's configuration (every problem reported, nothing run) or the defaults, with
    /// the flags applied.
    /// - Parameter missingFileIsNew: a `--config` file that does not exist yet is one about to
    ///   be written (`calibrate --save`): it holds the defaults.
    func target(missingFileIsNew: Bool = false) throws -> SensorCLI.Target {
        let configuration = try config.map { path throws(ConfigErrors) -> PoiseConfiguration in
            if missingFileIsNew && !FileManager.default.fileExists(atPath: path) { return PoiseConfiguration.default }
            return try PoiseConfiguration.load(path: path)
        } ?? PoiseConfiguration.default
        var settings = MPU9250Settings(configuration: configuration)
        let wired = settings.address
        if let address { settings.address = address.value }
        let kind: SensorCLI.Board = config == nil ? .linux : configuration.board.kind == .sim ? .sim : .linux
        return SensorCLI.Target(board: board ?? kind, bus: bus ?? configuration.board.i2cBus, settings: settings,
                                configuration: configuration, simulatedChipAddress: wired, file: config)
    }
}

extension SensorCLI {
    /// Replaces the file at `path` with `text` under the output-file policy (`OutputFile`:
    /// temporary file beside it, fsync, rename; permissions kept; symbolic links followed),
    /// so a reader sees the old file or the new one, never a mix.
    static func replaceFile(at path: String, with text: String) throws {
        try OutputFile.write(text, to: path, editingInput: true)
    }

    /// Whether `path` can be replaced (or created): the file, if it exists, and its
    /// directory are writable.
    static func canReplace(_ path: String) -> Bool {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        return (!FileManager.default.fileExists(atPath: target.path) || FileManager.default.isWritableFile(atPath: target.path))
            && FileManager.default.isWritableFile(atPath: target.deletingLastPathComponent().path)
    }
}
