import Foundation
import PoiseConfig
import PoiseFlightSettings

/// The ground station's parameters: every number, whole number and switch a SIGHUP reload
/// may change, under a MAVLink name of at most 16 characters derived from its key.
///
/// The name, deterministically: drop `controller.`; replace the phrases `integral_limit` →
/// `IMAX`, `output_limit` → `OMAX`, `d_cutoff_hz` → `DCUT`, `counts_per_revolution` → `CPR`;
/// drop unit words (`deg`, `dps`, `hz`, `ms`, `s`, `m`, `s2`); shorten each remaining word by `FlightParameters.abbreviations`; join with `_` in upper
/// case. So `controller.quad.pitch_rate.kp` is `QUAD_PIT_RT_P` and `safety.max_tilt_deg` is
/// `SAFE_MAX_TILT`. A parameter's value is the file's (degrees where the key says `_deg`;
/// switches 0 or 1). A test checks every name fits and no two collide; docs/telemetry.md's
/// table is generated from ``markdownTable()``.
public struct ParameterTable: Sendable {
    public struct Entry: Sendable, Equatable {
        public var name: String
        public var path: String
    }

    public let entries: [Entry]

    /// The one parameter table `poise run` and `poise-board` share (PoiseFlightSettings'
    /// ``FlightParameters``): every reloadable key of the schema that a float can carry, in
    /// schema order, named by the rule below (ParameterTableTests checks both).
    public init() {
        entries = FlightParameters.all.map { Entry(name: $0.name, path: $0.path) }
    }

    /// The schema's reloadable number, whole-number and switch keys under the names the rule
    /// gives them: what ``FlightParameters/all`` must list.
    public static func fromSchema() -> [Entry] {
        ConfigSchema.keys.compactMap { key in
            guard key.reload == .live else { return nil }
            switch key.type {
            case .number, .integer, .boolean: return Entry(name: Self.name(forKey: key.path), path: key.path)
            default: return nil
            }
        }
    }

    /// The rule (PoiseFlightSettings' ``FlightParameters/name(forKey:)``, the board's too).
    public static func name(forKey path: String) -> String { FlightParameters.name(forKey: path) }

    public func index(ofPath path: String) -> Int? { entries.firstIndex { $0.path == path } }

    /// The value of `path` in `configuration` as a parameter carries it.
    public static func value(_ path: String, in configuration: PoiseConfiguration) -> Float {
        switch configuration.values[path] {
        case .number(let v): Float(v)
        case .integer(let v): Float(v)
        case .boolean(let v): v ? 1 : 0
        default: .nan
        }
    }

    /// A parameter's value as the key's value, or why it cannot be one.
    public static func configValue(_ value: Float, for path: String) -> Result<ConfigValue, ParameterError> {
        guard let parameter = FlightParameters.index(ofPath: path).map({ FlightParameters.all[$0] }) else {
            return .failure(ParameterError("not a number key"))
        }
        // The table's conversion, the board's too (a number is the float's shortest decimal).
        switch parameter.value(ofParameter: value) {
        case .failure(let error): return .failure(ParameterError(error.message))
        case .success(let converted):
            switch parameter.kind {
            case .number: return .success(.number(converted))
            case .integer: return .success(.integer(Int(converted)))
            case .boolean: return .success(.boolean(converted == 1))
            }
        }
    }

    /// The table printed in docs/telemetry.md.
    public func markdownTable() -> String {
        var lines = ["| parameter | key | unit |", "|---|---|---|"]
        for entry in entries {
            let unit = ConfigSchema.key(entry.path)?.unit ?? ""
            lines.append("| `\(entry.name)` | `\(entry.path)` | \(unit) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

public struct ParameterError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
