import Foundation

/// How a number written in the file becomes the value a settings struct holds.
///
/// The forward conversions are the exact `Float` operations the adapters always did
/// (`Float(file) * .pi / 180`, `Float(file) / 1000`, …), so binding a key changes no bit of
/// what the filters run with.
public enum ConfigConversion: Sendable {
    /// The file's unit is the settings' unit.
    case identity
    /// Degrees (°, °/s) in the file, radians (rad, rad/s) in the settings.
    case degreesToRadians
    /// Milliseconds in the file, seconds in the settings.
    case millisecondsToSeconds
    /// Percent in the file, a fraction in the settings.
    case percentToFraction
    /// Degrees in the file, radians in the settings, converted in `Double` and rounded to
    /// `Float` once (what the controller's settings have always been given).
    case degreesToRadiansRoundedOnce

    /// The settings' value of `file`.
    public func forward(_ file: Double) -> Float {
        switch self {
        case .identity: Float(file)
        case .degreesToRadians: Float(file) * .pi / 180
        case .millisecondsToSeconds: Float(file) / 1000
        case .percentToFraction: Float(file) / 100
        case .degreesToRadiansRoundedOnce: Float(file * .pi / 180)
        }
    }

    /// The shortest decimal the file would hold for `value`: the default a settings struct
    /// gives, written as a person writes it (`2` °/s for 2π/180 rad/s). Shortest among those
    /// that ``forward(_:)`` maps back to exactly `value`, so the default read from the file
    /// and the struct's own default are the same bits.
    public func backward(_ value: Float) -> Double {
        let approximate: Double = switch self {
        case .identity: Double(value)
        case .degreesToRadians, .degreesToRadiansRoundedOnce: Double(value) * 180 / .pi
        case .millisecondsToSeconds: Double(value) * 1000
        case .percentToFraction: Double(value) * 100
        }
        for digits in 1...17 {
            if let candidate = Double(String(format: "%.\(digits)g", approximate)), forward(candidate) == value {
                return candidate
            }
        }
        return approximate
    }
}

/// One configuration key bound to the field of a settings struct it sets: the key's path,
/// type, range, unit, documentation and where its value lands, written once.
///
/// The key's default is not written here: it is the settings struct's own default, read back
/// through the conversion, so the two cannot disagree. The schema (validation, the generated
/// example file and docs) takes ``key``; the adapter from a loaded file to typed settings
/// runs ``apply(to:from:)``.
public struct ConfigBinding<Settings>: Sendable {
    /// The schema entry, default included.
    public let key: ConfigKey
    /// Sets the bound field of `settings` from the key's value in `values`.
    public let apply: @Sendable (_ settings: inout Settings, _ values: ConfigTable) -> Void

    /// Settings with every binding of `bindings` applied to `base`.
    public static func settings(_ bindings: [ConfigBinding], from values: ConfigTable, base: Settings) -> Settings {
        var settings = base
        for binding in bindings { binding.apply(&settings, values) }
        return settings
    }
}

extension ConfigBinding {
    /// A number bound to a `Float` field. `range` and `unit` are the file's; `conversion` takes
    /// the file's unit to the field's.
    ///
    /// `zeroTurnsOff`: the one rule for "off" — writing 0 turns the feature off, and the field
    /// then holds this value (`.infinity` for a threshold nothing exceeds). The field holding
    /// it reads back as 0.
    public static func number(_ path: String, _ field: WritableKeyPath<Settings, Float>,
                              range: ClosedRange<Double>, unit: String = "", _ conversion: ConfigConversion = .identity,
                              zeroTurnsOff off: Float? = nil, defaults: Settings, doc: String) -> ConfigBinding {
        let fieldDefault = defaults[keyPath: field]
        let fileDefault = off == fieldDefault ? 0 : conversion.backward(fieldDefault)
        var key = ConfigKey(path: path, type: .number(range: range), default: .number(fileDefault), unit: unit, doc: doc)
        key.zeroTurnsOff = off != nil
        nonisolated(unsafe) let field = field  // key paths are immutable values
        return ConfigBinding(key: key) { settings, values in
            let written = values.number(path)
            if let off, Float(written) == 0 {
                settings[keyPath: field] = off
            } else {
                settings[keyPath: field] = conversion.forward(written)
            }
        }
    }

    /// A number bound to a `Float` field whose feature has a switch of its own in the
    /// settings: writing 0 turns `feature` off and leaves the number as it was.
    public static func number(_ path: String, _ field: WritableKeyPath<Settings, Float>,
                              range: ClosedRange<Double>, unit: String = "", _ conversion: ConfigConversion = .identity,
                              zeroTurnsOff feature: WritableKeyPath<Settings, Bool>,
                              defaults: Settings, doc: String) -> ConfigBinding {
        let fileDefault = defaults[keyPath: feature] ? conversion.backward(defaults[keyPath: field]) : 0
        var key = ConfigKey(path: path, type: .number(range: range), default: .number(fileDefault), unit: unit, doc: doc)
        key.zeroTurnsOff = true
        nonisolated(unsafe) let (field, feature) = (field, feature)  // key paths are immutable values
        return ConfigBinding(key: key) { settings, values in
            let written = values.number(path)
            if written == 0 {
                settings[keyPath: feature] = false
            } else {
                settings[keyPath: field] = conversion.forward(written)
            }
        }
    }

    /// A switch bound to a `Bool` field.
    public static func boolean(_ path: String, _ field: WritableKeyPath<Settings, Bool>,
                               defaults: Settings, doc: String) -> ConfigBinding {
        let key = ConfigKey(path: path, type: .boolean, default: .boolean(defaults[keyPath: field]), doc: doc)
        nonisolated(unsafe) let field = field  // key paths are immutable values
        return ConfigBinding(key: key) { settings, values in
            settings[keyPath: field] = values.boolean(path)
        }
    }

    /// An old switch kept so files that write it still load: `false` turns the feature off,
    /// as 0 in the number that replaced it does. Its documentation says what to write instead.
    /// Must come before that number's binding, which may turn the feature off too.
    public static func deprecatedSwitch(_ path: String, _ feature: WritableKeyPath<Settings, Bool>,
                                        defaults: Settings, doc: String) -> ConfigBinding {
        var key = ConfigKey(path: path, type: .boolean, default: .boolean(defaults[keyPath: feature]), doc: doc)
        key.deprecated = true
        nonisolated(unsafe) let feature = feature  // key paths are immutable values
        return ConfigBinding(key: key) { settings, values in
            settings[keyPath: feature] = values.boolean(path)
        }
    }
}
