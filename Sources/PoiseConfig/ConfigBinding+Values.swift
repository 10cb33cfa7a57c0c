import Foundation

// Bindings of keys whose values are not filter numbers: whole numbers, choices, text, vectors,
// lists. The same rule as for numbers holds: the key's default is the bound field's own
// default, written where the field is declared, and read back here.

extension ConfigConversion {
    /// The settings' value of `file`, for a `Double` field: the exact operations the adapters
    /// always did in `Double` (`ms / 1000`).
    public func forward(double file: Double) -> Double {
        switch self {
        case .identity: file
        case .degreesToRadians, .degreesToRadiansRoundedOnce: file * .pi / 180
        case .millisecondsToSeconds: file / 1000
        case .percentToFraction: file / 100
        }
    }

    /// The shortest decimal the file would hold for the `Double` field value `value`.
    public func backward(double value: Double) -> Double {
        let approximate: Double = switch self {
        case .identity: value
        case .degreesToRadians, .degreesToRadiansRoundedOnce: value * 180 / .pi
        case .millisecondsToSeconds: value * 1000
        case .percentToFraction: value * 100
        }
        for digits in 1...17 {
            if let candidate = Double(String(format: "%.\(digits)g", approximate)), forward(double: candidate) == value {
                return candidate
            }
        }
        return approximate
    }
}

extension ConfigBinding {
    /// Any value: `type` is what the file takes, `written` gives the file's value of the field's
    /// default, `read` the field's value of what the file holds.
    public static func value<Value>(_ path: String, _ field: WritableKeyPath<Settings, Value>, _ type: ConfigType,
                                    unit: String = "", zeroTurnsOff: Bool = false, defaults: Settings, doc: String,
                                    written: (Value) -> ConfigValue,
                                    read: @escaping @Sendable (ConfigTable, String) -> Value) -> ConfigBinding {
        var key = ConfigKey(path: path, type: type, default: written(defaults[keyPath: field]), unit: unit, doc: doc)
        key.zeroTurnsOff = zeroTurnsOff
        nonisolated(unsafe) let field = field  // key paths are immutable values
        return ConfigBinding(key: key) { settings, values in
            settings[keyPath: field] = read(values, path)
        }
    }

    /// This binding with no default: the key must be written (a list element's identity).
    public func required() -> ConfigBinding {
        ConfigBinding(key: key.withDefault(nil), apply: apply)
    }

    /// This binding, its key acting outside the tick at `place` (see ``ConfigKey/actsOutsideTheTick``):
    /// read once at start, so never taken by a running loop (``ConfigKey/Reload/restart``).
    public func outsideTheTick(_ place: String) -> ConfigBinding {
        var key = key
        precondition(key.reload == .restart, "\(key.path): a key acting outside the tick is read at start")
        key.actsOutsideTheTick = place
        return ConfigBinding(key: key, apply: apply)
    }

    /// This binding, its key taken by a running loop (SIGHUP, PARAM_SET): see ``ConfigKey/reload``.
    /// Every key is restart-only unless its binding says this.
    public func live() -> ConfigBinding {
        var key = key
        precondition(key.actsOutsideTheTick == nil, "\(key.path): a key acting outside the tick is read at start")
        key.reload = .live
        return ConfigBinding(key: key, apply: apply)
    }

    /// This binding applied to the `Settings` at `path` of an enclosing struct.
    public func lifted<Outer>(_ path: WritableKeyPath<Outer, Settings>) -> ConfigBinding<Outer> {
        nonisolated(unsafe) let path = path  // key paths are immutable values
        let apply = self.apply
        return ConfigBinding<Outer>(key: key) { outer, values in apply(&outer[keyPath: path], values) }
    }

    /// A number bound to a `Double` field. `zeroTurnsOff` documents that 0 turns the feature off
    /// (the field then holds 0 and its reader treats 0 as off).
    public static func number(_ path: String, _ field: WritableKeyPath<Settings, Double>,
                              range: ClosedRange<Double>, unit: String = "", _ conversion: ConfigConversion = .identity,
                              zeroTurnsOff: Bool = false, defaults: Settings, doc: String) -> ConfigBinding {
        value(path, field, .number(range: range), unit: unit, zeroTurnsOff: zeroTurnsOff, defaults: defaults, doc: doc,
              written: { .number(conversion.backward(double: $0)) },
              read: { values, path in conversion.forward(double: values.number(path)) })
    }

    /// A whole number within `range`, bound to an `Int` field.
    public static func integer(_ path: String, _ field: WritableKeyPath<Settings, Int>, range: ClosedRange<Int>,
                               unit: String = "", zeroTurnsOff: Bool = false, defaults: Settings, doc: String) -> ConfigBinding {
        value(path, field, .integer(range: range), unit: unit, zeroTurnsOff: zeroTurnsOff, defaults: defaults, doc: doc,
              written: { .integer($0) }, read: { values, path in values.integer(path) })
    }

    /// A whole number within `range` (inside 0…255), bound to a `UInt8` field (an id a protocol sends as a byte).
    public static func integer(_ path: String, _ field: WritableKeyPath<Settings, UInt8>, range: ClosedRange<Int>,
                               unit: String = "", defaults: Settings, doc: String) -> ConfigBinding {
        precondition(range.lowerBound >= 0 && range.upperBound <= 255, "\(path): a byte's range")
        return value(path, field, .integer(range: range), unit: unit, defaults: defaults, doc: doc,
                     written: { .integer(Int($0)) }, read: { values, path in UInt8(clamping: values.integer(path)) })
    }

    /// One of the listed whole numbers, bound to an `Int` field.
    public static func integer(_ path: String, _ field: WritableKeyPath<Settings, Int>, choices: [Int], hexadecimal: Bool = false,
                               unit: String = "", defaults: Settings, doc: String) -> ConfigBinding {
        value(path, field, .integerChoice(choices, hexadecimal: hexadecimal), unit: unit, defaults: defaults, doc: doc,
              written: { .integer($0) }, read: { values, path in values.integer(path) })
    }

    /// One case of a register-field enum, written in the file as the number `valued` gives it
    /// (a range in g, a bandwidth in Hz); the choices are every case's number, in case order.
    public static func integer<Case: CaseIterable & Sendable>(_ path: String, _ field: WritableKeyPath<Settings, Case>,
                                                             valued: @escaping @Sendable (Case) -> Int, unit: String = "",
                                                             defaults: Settings, doc: String) -> ConfigBinding {
        let key = ConfigKey(path: path, type: .integerChoice(Case.allCases.map(valued), hexadecimal: false),
                            default: .integer(valued(defaults[keyPath: field])), unit: unit, doc: doc)
        nonisolated(unsafe) let field = field  // key paths are immutable values
        return ConfigBinding(key: key) { settings, values in
            let written = values.integer(path)
            // The parser admits only the listed numbers, so a case always matches.
            if let match = Case.allCases.first(where: { valued($0) == written }) { settings[keyPath: field] = match }
        }
    }

    /// Text, bound to a `String` field; `choices`, when given, are the words allowed.
    public static func string(_ path: String, _ field: WritableKeyPath<Settings, String>, choices: [String]? = nil,
                              defaults: Settings, doc: String) -> ConfigBinding {
        value(path, field, choices.map(ConfigType.enumeration) ?? .string, defaults: defaults, doc: doc,
              written: { .string($0) }, read: { values, path in values.string(path) })
    }

    /// Text whose feature is off when empty (the rule for text, as 0 is for numbers): the
    /// field holds `nil` then.
    public static func string(_ path: String, _ field: WritableKeyPath<Settings, String?>,
                              defaults: Settings, doc: String) -> ConfigBinding {
        value(path, field, .string, defaults: defaults, doc: doc,
              written: { .string($0 ?? "") },
              read: { values, path in let text = values.string(path); return text.isEmpty ? nil : text })
    }

    /// One of the listed words, each standing for a value of the field.
    public static func choice<Value: Equatable>(_ path: String, _ field: WritableKeyPath<Settings, Value>,
                                                _ cases: [(word: String, value: Value)],
                                                defaults: Settings, doc: String) -> ConfigBinding {
        nonisolated(unsafe) let cases = cases  // immutable pairs of words and values
        return value(path, field, .enumeration(cases.map(\.word)), defaults: defaults, doc: doc,
                     written: { value in .string(cases.first { $0.value == value }?.word ?? "") },
                     read: { values, path in
                         let word = values.string(path)
                         guard let match = cases.first(where: { $0.word == word }) else {
                             preconditionFailure("`\(path)`: no case \(word)")  // the parser has checked the word
                         }
                         return match.value
                     })
    }

    /// One of the words of a Swift enum whose raw values are the file's words, in case order.
    public static func choice<Value: RawRepresentable & CaseIterable & Equatable>(
        _ path: String, _ field: WritableKeyPath<Settings, Value>, defaults: Settings, doc: String
    ) -> ConfigBinding where Value.RawValue == String {
        choice(path, field, Value.allCases.map { (word: $0.rawValue, value: $0) }, defaults: defaults, doc: doc)
    }

    /// Three numbers, bound to a `SIMD3<Double>` field.
    public static func vector3(_ path: String, _ field: WritableKeyPath<Settings, SIMD3<Double>>, unit: String = "",
                               defaults: Settings, doc: String) -> ConfigBinding {
        value(path, field, .vector3, unit: unit, defaults: defaults, doc: doc,
              written: { .vector3($0) }, read: { values, path in values.vector3(path) })
    }

    /// Three rows of three numbers, bound to a `ConfigMatrix3` field.
    public static func matrix3(_ path: String, _ field: WritableKeyPath<Settings, ConfigMatrix3>,
                               defaults: Settings, doc: String) -> ConfigBinding {
        value(path, field, .matrix3, defaults: defaults, doc: doc,
              written: { .matrix3($0) }, read: { values, path in values.matrix3(path) })
    }

    /// An axis mapping such as `+y-x+z`, bound to an `AxisMapping` field.
    public static func axisMapping(_ path: String, _ field: WritableKeyPath<Settings, AxisMapping>,
                                   defaults: Settings, doc: String) -> ConfigBinding {
        value(path, field, .axisMapping, defaults: defaults, doc: doc,
              written: { .string($0.description) },
              read: { values, path in (try? AxisMapping.parse(values.string(path)).get()) ?? .identity })
    }

    /// A list of tables, each element bound by `element`'s bindings from `base`; empty by default.
    public static func list<Element>(_ path: String, _ field: WritableKeyPath<Settings, [Element]>,
                                     of element: [ConfigBinding<Element>], base: Element, doc: String) -> ConfigBinding {
        nonisolated(unsafe) let (field, base) = (field, base)  // an immutable key path and defaults
        return ConfigBinding(key: ConfigKey(path: path, type: .list(of: element.map(\.key)), default: .list([]), doc: doc)) { settings, values in
            settings[keyPath: field] = values.list(path).map { ConfigBinding<Element>.settings(element, from: $0, base: base) }
        }
    }
}
