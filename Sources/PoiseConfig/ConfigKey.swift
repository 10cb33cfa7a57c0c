/// What kind of value a configuration key takes, with the constraint that goes with it.
public indirect enum ConfigType: Sendable {
    /// `true` or `false`.
    case boolean
    /// A whole number within the range (decimal, or hexadecimal `0x…`).
    case integer(range: ClosedRange<Int>)
    /// One of the listed whole numbers, e.g. full-scale ranges. Hexadecimal ones print as `0x68`.
    case integerChoice([Int], hexadecimal: Bool = false)
    /// A finite number within the range.
    case number(range: ClosedRange<Double>)
    /// Any text.
    case string
    /// One of the listed words.
    case enumeration([String])
    /// An axis mapping such as `+y-x+z`; see ``AxisMapping``.
    case axisMapping
    /// Three numbers: `[x, y, z]`.
    case vector3
    /// Three rows of three numbers: `[[a, b, c], [d, e, f], [g, h, i]]`.
    case matrix3
    /// A list of tables; each element is checked against these keys (paths relative to it).
    case list(of: [ConfigKey])
}

/// One key of the configuration schema: its type, default, unit and documentation.
///
/// The schema is data: the loader, the `--print-defaults` output and the docs are all derived
/// from a list of these, so adding a key is one line.
public struct ConfigKey: Sendable {
    /// Dotted path from the file's root (or from a list element), e.g. `filter.madgwick.beta`.
    public let path: String
    public let type: ConfigType
    /// The value used when the key is absent; `nil` makes the key required.
    public let defaultValue: ConfigValue?
    /// Unit symbol shown with ranges and in the generated docs, e.g. `s`, `rad/s`, `µT`.
    public let unit: String
    /// One sentence saying what the key does.
    public let doc: String
    /// Writing 0 turns the key's feature off, even where 0 is below the range of working
    /// values (the one rule for "off": no separate switch beside a number).
    public var zeroTurnsOff = false
    /// Kept so old files load; its documentation says what to write instead, and `poise check`
    /// notes each use.
    public var deprecated = false
    /// Where the key acts when that is not in the settings the tick runs with (the loop thread,
    /// the recorder, the simulated world, loading), e.g. "the recorder's ring"; nil for a key
    /// whose value the tick runs with. The test that every key lands checks such a key
    /// against its typed section instead.
    public var actsOutsideTheTick: String? = nil
    /// Whether a running loop takes a new value of the key (SIGHUP and the ground station's
    /// PARAM_SET alike) or only a restart does: the one place reloadability is decided.
    public var reload: Reload = .restart

    /// When a new value of a key takes effect.
    public enum Reload: Sendable, Equatable {
        /// A running loop takes it (the gains, limits and output mappings the tick is handed).
        case live
        /// Read once at start: a running loop refuses a change with "not applied: restart to change".
        /// For a ``ConfigType/list(of:)`` key that is `.live`, its elements' `.restart` keys
        /// (the hardware a running loop opened) are refused the same way.
        case restart
    }

    /// A key with a default. Integer literals given for `.number` keys become numbers.
    public init(_ path: String, _ type: ConfigType, default value: ConfigValue, unit: String = "", doc: String) {
        self.init(path: path, type: type, defaultValue: value, unit: unit, doc: doc)
    }

    /// A key with a default, spelled out.
    public init(path: String, type: ConfigType, default value: ConfigValue, unit: String = "", doc: String) {
        self.init(path: path, type: type, defaultValue: value, unit: unit, doc: doc)
    }

    /// A required key (used inside list elements).
    public init(required path: String, _ type: ConfigType, unit: String = "", doc: String) {
        self.init(path: path, type: type, defaultValue: nil, unit: unit, doc: doc)
    }

    public init(path: String, type: ConfigType, defaultValue: ConfigValue?, unit: String, doc: String) {
        self.path = path
        self.type = type
        self.unit = unit
        self.doc = doc
        if case .number = type, case .integer(let n)? = defaultValue {
            self.defaultValue = .number(Double(n))
        } else {
            self.defaultValue = defaultValue
        }
    }

    /// This key with another default (a board profile's value).
    public func withDefault(_ value: ConfigValue?) -> ConfigKey {
        var key = ConfigKey(path: path, type: type, defaultValue: value, unit: unit, doc: doc)
        key.zeroTurnsOff = zeroTurnsOff
        key.deprecated = deprecated
        key.actsOutsideTheTick = actsOutsideTheTick
        key.reload = reload
        return key
    }

    /// Whether `value` is allowed by the range of a `.number` key (0 too when it turns the key off).
    func accepts(_ value: Double, in range: ClosedRange<Double>) -> Bool {
        range.contains(value) || (zeroTurnsOff && value == 0)
    }

    /// The last path component: the name written in the file.
    public var name: String {
        path.split(separator: ".").last.map(String.init) ?? path
    }

    /// What the key accepts, for error messages and comments; `nil` when anything of the type goes.
    public var allowed: String? {
        let unitSuffix = unit.isEmpty ? "" : " \(unit)"
        switch type {
        case .boolean:
            return "true, false"
        case .integer(let range):
            return "\(range.lowerBound)…\(range.upperBound)\(unitSuffix)"
        case .integerChoice(let choices, let hexadecimal):
            return choices.map { ConfigFormat.integer($0, hexadecimal: hexadecimal) }.joined(separator: ", ")
                + unitSuffix
        case .number(let range):
            let off = zeroTurnsOff && !range.contains(0) ? "0 (off), " : ""
            return "\(off)\(ConfigFormat.number(range.lowerBound))…\(ConfigFormat.number(range.upperBound))\(unitSuffix)"
        case .enumeration(let choices):
            return choices.joined(separator: ", ")
        case .axisMapping:
            return "a signed permutation of x, y, z forming a rotation, e.g. +x+y+z, +y-x+z"
        case .string, .vector3, .matrix3, .list:
            return nil
        }
    }

    /// The type in a few words, for "expected …" messages and comments.
    public var typeDescription: String {
        switch type {
        case .boolean: "a boolean"
        case .integer, .integerChoice: "an integer"
        case .number: "a number"
        case .string: "a string"
        case .enumeration: "one of the listed words"
        case .axisMapping: "an axis mapping"
        case .vector3: "a list of 3 numbers"
        case .matrix3: "a list of 3 rows of 3 numbers"
        case .list: "a list of tables"
        }
    }
}

/// A documented group of keys (a section such as `filter`, or a subsection such as
/// `filter.madgwick`), used for the comments of the generated default file.
public struct ConfigGroup: Sendable {
    public let path: String
    public let doc: String

    public init(_ path: String, doc: String) {
        self.path = path
        self.doc = doc
    }
}

/// How numbers are written back to YAML and into messages.
enum ConfigFormat {
    /// Shortest text that reads back to the same `Double`; whole numbers keep a `.0` only
    /// when `keepFraction` is set, so ranges read `0…10` but values read `10.0`.
    static func number(_ value: Double, keepFraction: Bool = false) -> String {
        if !keepFraction, value == value.rounded(), abs(value) < 1e15 {
            return String(Int(value))
        }
        return "\(value)"
    }

    static func integer(_ value: Int, hexadecimal: Bool) -> String {
        guard hexadecimal else { return String(value) }
        return (value < 0 ? "-0x" : "0x") + String(value.magnitude, radix: 16)
    }
}
