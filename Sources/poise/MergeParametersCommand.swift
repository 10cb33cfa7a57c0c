import ArgumentParser
import Foundation
import PoiseConfig
import PoiseFlightSettings
import PoiseRun
import PoiseSettings
import PoiseTraces

/// `poise merge-parameters OVERLAY CONFIG`: the parameters stored on the board (the state
/// directory's overlay) written into the YAML configuration, comments and layout kept.
struct MergeParametersCommand: PoiseCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-parameters",
        abstract: "Write the parameters stored on the board into the configuration file.",
        discussion: """
            A ground station's MAV_CMD_PREFLIGHT_STORAGE stores the parameters it set in \
            the state directory's parameters.yaml (the installed unit cannot write /etc/poise), \
            which `poise run` applies over the configuration at each start and SIGHUP. This \
            writes each of them into CONFIG in place, as `calibrate --save` does: only those \
            lines change, every comment and the layout stay, the file is replaced atomically \
            with its mode and owner, and a symbolic link stays a link (its target gets the \
            values). The result is validated as the loader validates a file first.

            An entry whose key CONFIG has changed since it was stored (the file's value is \
            neither the one the entry was stored over nor the entry's) is a conflict: nothing \
            is written and each is named with its line, unless --force (the overlay's value \
            wins). --clear removes the overlay once its values are in CONFIG.

            Examples:
              sudo poise merge-parameters /var/lib/poise/parameters.yaml /etc/poise/poise.yaml --clear
              sudo systemctl reload poise
            """)

    @Argument(help: "The stored parameters (the state directory's parameters.yaml).")
    var overlay: String

    @Argument(help: "The YAML configuration to write them into.")
    var config: String

    @Flag(help: "Remove OVERLAY once its values are in CONFIG.")
    var clear = false

    @Flag(help: "Write an entry whose key CONFIG has changed since it was stored (the overlay's value wins).")
    var force = false

    func execute() throws {
        let stored: StoredParameters
        do {
            guard let read = try ParameterOverlayFile.read(overlay) else { throw CLIError("\(overlay): no such file") }
            stored = read
        } catch let error as ConfigErrors {
            throw CLIError.asIs(error.description)
        }
        let text: String
        let file: PoiseConfiguration
        do {
            text = try PoiseConfiguration.readText(path: config)
            file = try PoiseConfiguration.load(path: config)
            // The merged values hold every cross-key rule (reported at the overlay's lines).
            _ = try file.applying(stored, file: overlay)
        } catch {
            throw CLIError.asIs(error.description)
        }
        let plan = Self.plan(stored, file: file.values, lines: ConfigParser.writtenLines(text: text, file: config), config: config,
                             force: force)
        if !plan.conflicts.isEmpty, !force {
            throw CLIError.asIs(plan.conflicts.joined(separator: "\n")
                + "\npoise: nothing merged: \(config) changed since these were stored; edit it or the overlay, or merge with --force")
        }
        if !plan.write.isEmpty {
            do {
                let edited = try ConfigEditor.setting(plan.write, in: text, file: config)
                // What is written reads back as the values merged.
                let check = try ConfigParser.parse(text: edited, file: config)
                for (path, value) in plan.write where check[path] != value {
                    throw CLIError("\(config): \(path) would not read back as \(ConfigSchema.key(path).map { ConfigEditor.yaml(value, key: $0) } ?? "")")
                }
                try OutputFile.write(edited, to: config, editingInput: true)
            } catch let error as CLIError {
                throw error
            } catch {
                throw CLIError.asIs("\(error)")
            }
        }
        let changes = plan.write.map { path, value in
            let key = ConfigSchema.key(path)
            let old = file.values[path].flatMap { old in key.map { ConfigEditor.yaml(old, key: $0) } } ?? "(default)"
            return "\(path) \(old) -> \(key.map { ConfigEditor.yaml(value, key: $0) } ?? "")"
        }
        printError(plan.write.isEmpty ? "poise: \(config) already has every value of \(overlay)"
            : "poise: merged \(plan.write.count) parameters into \(config): \(changes.joined(separator: ", "))")
        if clear {
            do { try ParameterOverlayFile.remove(overlay) } catch { throw CLIError.asIs(error.description) }
            printError("poise: removed \(overlay)")
        }
    }

    /// What merging `overlay` into a file with `file`'s values writes, and the conflicts (each
    /// at the file's line): an entry stored over a value the file no longer has, that is not the
    /// entry's value either (written too when `force`).
    static func plan(_ overlay: StoredParameters, file: ConfigTable, lines: [String: Int], config: String, force: Bool)
        -> (write: [(path: String, value: ConfigValue)], conflicts: [String]) {
        var write: [(path: String, value: ConfigValue)] = []
        var conflicts: [String] = []
        for entry in overlay.entries where file[entry.path] != entry.configValue {
            guard let key = ConfigSchema.key(entry.path) else { continue }
            if let was = entry.configWas, let now = file[entry.path], now != was {
                let position = lines[entry.path].map { "\(config):\($0)" } ?? config
                conflicts.append("\(position): \(entry.path): the file has \(ConfigEditor.yaml(now, key: key)), changed since "
                    + "\(ConfigEditor.yaml(entry.configValue, key: key)) was stored over \(ConfigEditor.yaml(was, key: key))")
                if !force { continue }
            }
            write.append((entry.path, entry.configValue))
        }
        return (write, conflicts)
    }
}
