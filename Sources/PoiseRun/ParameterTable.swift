import Foundation
import PoiseConfig

/// The ground station's parameters: every number, whole number and switch a SIGHUP reload
/// may change, under a MAVLink name of at most 16 characters derived from its key.
///
/// The name, deterministically: drop `controller.`; replace the phrases `integral_limit` →
/// `IMAX`, `output_limit` → `OMAX`, `d_cutoff_hz` → `DCUT`, `counts_per_revolution` → `CPR`;
/// drop unit words (`deg`, `dps`, `hz`, `ms`, `s`, `m`, `s2`); shorten each remaining word by ``abbreviations``; join with `_` in upper
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

    /// Every reloadable key of the schema that a float can carry, in schema order.
    public init() {
        entries = ConfigSchema.keys.compactMap { key in
            guard key.reload == .live else { return nil }
            switch key.type {
            case .number, .integer, .boolean: return Entry(name: Self.name(forKey: key.path), path: key.path)
            default: return nil
            }
        }
    }

    public static let phrases: [(String, String)] = [("integral_limit", "imax"), ("output_limit", "omax"), ("d_cutoff_hz", "dcut"),
                                                       ("counts_per_revolution", "cpr")]
    public static let units: Set<String> = ["deg", "dps", "hz", "ms", "s", "m", "s2"]
    public static let abbreviations: [String: String] = [
        "balance": "BAL", "safety": "SAFE", "pitch": "PIT", "roll": "RLL", "rate": "RT", "setpoint": "SP", "feedback": "FB",
        "cutoff": "CUT", "drive": "DRV", "throttle": "THR", "sensor": "SNS", "timeout": "TMO", "overrun": "OVR",
        "limit": "LIM", "heading": "HDG", "angle": "ANG", "kp": "P", "ki": "I", "kd": "D",
        "speed": "SPD", "acceleration": "ACC", "turn": "TRN", "feedforward": "FF", "wheel": "WHL", "radius": "RAD",
        "encoders": "ENC", "deadband": "DBND", "compensation": "COMP",
    ]

    public static func name(forKey path: String) -> String {
        var text = path.hasPrefix("controller.") ? String(path.dropFirst("controller.".count)) : path
        for (phrase, short) in phrases { text = text.replacingOccurrences(of: phrase, with: short) }
        let words = text.split(whereSeparator: { $0 == "." || $0 == "_" }).map(String.init).filter { !units.contains($0) }
        return words.map { abbreviations[$0] ?? $0.uppercased() }.joined(separator: "_")
    }

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
        guard value.isFinite else { return .failure(ParameterError("not a finite number")) }
        switch ConfigSchema.key(path)?.type {
        // The float's shortest decimal (0.1, not 0.10000000149011612): what the ground station
        // showed, and what storage writes.
        case .number: return .success(.number(Double("\(value)") ?? Double(value)))
        case .integer:
            guard value == value.rounded(), abs(value) < 1e9 else { return .failure(ParameterError("\(value) is not a whole number")) }
            return .success(.integer(Int(value)))
        case .boolean:
            guard value == 0 || value == 1 else { return .failure(ParameterError("a switch is 0 or 1, not \(value)")) }
            return .success(.boolean(value == 1))
        default: return .failure(ParameterError("not a number key"))
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
