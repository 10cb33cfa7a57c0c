import PoiseConfig
import PoiseFlightSettings

/// The parameters stored on the board on the host: PoiseFlightSettings' ``StoredParameters``
/// (the one reader and writer of `parameters.yaml`, the board's too) read with the
/// configuration's errors, its values as the configuration holds them, applied over a
/// configuration as the loader checks a file.
extension StoredParameters {
    /// Reads a file's text as `poise run` reports it: every problem a ``ConfigError`` at its line
    /// (`FILE:LINE: KEY: MESSAGE (allowed: …)`); a schema key that is no parameter is "not a parameter".
    public init(parsing text: String, file: String) throws(ConfigErrors) {
        let (read, problems) = Self.reading(text, isKey: { ConfigSchema.key($0) != nil })
        guard problems.isEmpty else {
            throw ConfigErrors(problems.map { ConfigError(file: file, line: $0.line, key: $0.key, message: $0.message, allowed: $0.allowed) })
        }
        self = read
    }
}

extension StoredParameters.Entry {
    /// The entry of the key `path` at the configuration's `value`, stored over `was`; nil when
    /// the key is no parameter or a value is not of its type.
    public init?(path: String, value: ConfigValue, was: ConfigValue?) {
        guard let index = FlightParameters.index(ofPath: path), let number = FlightParameters.all[index].fileValue(value) else { return nil }
        let wasNumber = was.flatMap(FlightParameters.all[index].fileValue)
        guard was == nil || wasNumber != nil else { return nil }
        self.init(index: index, value: number, was: wasNumber)
    }

    /// The value as the configuration holds it.
    public var configValue: ConfigValue { parameter.configValue(value) }

    /// The configuration's value when stored (`# was …`), nil when not written.
    public var configWas: ConfigValue? { was.map(parameter.configValue) }
}

extension FlightParameter {
    /// The file's value `value` (a switch 0 or 1) as the configuration holds it.
    public func configValue(_ value: Double) -> ConfigValue {
        switch kind {
        case .number: .number(value)
        case .integer: Int(exactly: value).map(ConfigValue.integer) ?? .number(value)
        case .boolean: .boolean(value != 0)
        }
    }

    /// A configuration value of this key as the file's value (a switch 0 or 1), nil when it is of another type.
    public func fileValue(_ value: ConfigValue) -> Double? {
        switch (kind, value) {
        case (.number, .number(let number)): number
        case (.number, .integer(let whole)), (.integer, .integer(let whole)): Double(whole)
        case (.boolean, .boolean(let on)): on ? 1 : 0
        default: nil
        }
    }
}

extension PoiseConfiguration {
    /// This configuration with `stored` applied (``applying(stored:file:)``): problems at
    /// `file`'s lines.
    public func applying(_ stored: StoredParameters, file: String) throws(ConfigErrors) -> PoiseConfiguration {
        try applying(stored: stored.entries.map { (path: $0.parameter.path, value: $0.configValue, line: $0.line) }, file: file)
    }
}
