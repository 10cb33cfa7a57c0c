import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PoiseConfig
import PoiseFlightSettings
import PoiseReplay
import PoiseSettings
import PoiseTraces

/// `poise compile CONFIG -o OUT`: the configuration's resolved flight settings as the
/// compact binary file the board binary reads (docs/board.md).
struct CompileCommand: PoiseCommand {
    static let configuration = CommandConfiguration(
        commandName: "compile",
        abstract: "Compile a configuration into the binary settings file the board binary reads.",
        discussion: """
            Validates CONFIG exactly as every other command does, resolves it into the settings \
            the flight core, the tick and a replay run with (filter and its settings, gyroscope \
            filters, controller, safety, output channels and mappings, output frame and \
            declination, start-up bias time, sensor calibration and mounting, loop rate, the \
            built-in drive script and the test throttle), and writes them as a compiled \
            configuration: a magic, a format version, the length, the sections and a CRC-32. \
            `poise-board replay RECORDING --config OUT` replays the recording through the tick \
            with it, byte for byte as `poise replay RECORDING` does here; `poise replay` takes \
            it as --config too.

            CONFIG is a YAML configuration, or a `poise run` recording (.csv, .ptrace or .bin), \
            whose embedded configuration is compiled.

            Examples:
              poise compile configs/sim-balancing-robot.yaml -o robot.pcfg
              poise compile run.ptrace -o run.pcfg
            """)

    @Argument(help: "The configuration (YAML), or a `poise run` recording whose configuration to compile.")
    var config: String

    @Option(name: .shortAndLong, help: "The compiled file to write (- for standard output).")
    var output: String

    func validate() throws {
        if output.isEmpty { throw ValidationError("Give the compiled file's name with --output.") }
    }

    func execute() throws {
        let configuration = try Self.configuration(from: config)
        var settings = FlightCoreFactory.settings(configuration)
        // What a recording made on the board carries, as `poise run`'s recordings do.
        var metadata = TraceMetadata()
        EmbeddedConfiguration.add(configuration, to: &metadata)
        settings.recordedConfiguration = metadata.lines
        let bytes = CompiledSettings.encode(settings)
        try Self.write(bytes, to: output)
        if output != "-" {
            printError("poise: compiled \(config) into \(output) (\(bytes.count) bytes, format version \(CompiledSettings.formatVersion): "
                + "filter \(settings.filter.kind.rawValue), controller \(configuration.controller.kind.rawValue), "
                + "\(settings.channels.count) output channels)")
        }
    }

    /// The configuration at `path`: a YAML file, validated, or a recording's embedded one.
    static func configuration(from path: String) throws -> PoiseConfiguration {
        InputFiles.record(path: path)
        guard TraceWriter.format(forPath: path) != nil || path.hasSuffix(".bin") else {
            return try PoiseConfiguration.load(path: path)
        }
        let reader = try TraceReader(path: path)
        guard let embedded = try EmbeddedConfiguration.configuration(in: reader.metadata, trace: path) else {
            throw CLIError("\(path): the trace carries no configuration (only `poise run`, `poise record` and "
                + "`poise simulate --record` recordings do); compile the YAML it was made with")
        }
        return embedded
    }

    /// Writes `bytes` through PoiseTraces' output policy: a temporary file renamed into place,
    /// never over an input of this run.
    static func write(_ bytes: [UInt8], to path: String) throws {
        let file = try OutputFile(path: path)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(file.fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let code = errno
                file.discard()
                throw CLIError("\(OutputFile.displayName(path)): cannot write: \(String(cString: strerror(code)))")
            }
            written += count
        }
        try file.commit()
    }
}

/// A compiled configuration given where a YAML one may be (`poise replay --config`).
enum CompiledConfigurationFile {
    /// The settings in `path` when it is a compiled configuration (it starts with the magic),
    /// nil for any other file; a damaged one is refused with its byte offset.
    static func settingsIfCompiled(path: String) throws -> FlightSettings? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let bytes = [UInt8](data)
        guard CompiledSettings.isCompiled(bytes) else { return nil }
        InputFiles.record(path: path)
        do { return try CompiledSettings.decode(bytes) } catch { throw CLIError("\(path): \(error.description)") }
    }
}
