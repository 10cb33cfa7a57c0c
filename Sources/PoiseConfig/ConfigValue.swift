/// A validated configuration value, in the units the schema documents for its key.
public enum ConfigValue: Equatable, Sendable {
    case boolean(Bool)
    case integer(Int)
    case number(Double)
    /// Strings, enumeration choices and axis mappings.
    case string(String)
    case vector3(SIMD3<Double>)
    case matrix3(ConfigMatrix3)
    /// A list of tables, each holding every key of the list's element schema.
    case list([ConfigTable])
}

extension ConfigValue: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral
{
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
}

/// A 3×3 matrix given row by row, as written in the file: `[[1, 0, 0], [0, 1, 0], [0, 0, 1]]`.
public struct ConfigMatrix3: Equatable, Sendable {
    public var rows: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)

    public init(_ row0: SIMD3<Double>, _ row1: SIMD3<Double>, _ row2: SIMD3<Double>) {
        rows = (row0, row1, row2)
    }

    public static let identity = ConfigMatrix3([1, 0, 0], [0, 1, 0], [0, 0, 1])

    /// Row `index` (0, 1 or 2).
    public subscript(row index: Int) -> SIMD3<Double> {
        switch index {
        case 0: rows.0
        case 1: rows.1
        default: rows.2
        }
    }

    /// The matrix times a column vector.
    public func applied(to v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((rows.0 * v).sum(), (rows.1 * v).sum(), (rows.2 * v).sum())
    }

    public static func == (a: ConfigMatrix3, b: ConfigMatrix3) -> Bool {
        a.rows.0 == b.rows.0 && a.rows.1 == b.rows.1 && a.rows.2 == b.rows.2
    }
}

/// Validated values by dotted key path (`"filter.madgwick.beta"`), with every schema key present.
///
/// This is how modules read a key the typed ``PoiseConfiguration`` does not (yet) name. The
/// accessors trap on a path the schema lacks or a type mismatch: both are programming errors,
/// never user input errors, because the loader has already checked the file against the schema.
public struct ConfigTable: Equatable, Sendable {
    /// Values by dotted path relative to this table.
    public var values: [String: ConfigValue]

    public init(_ values: [String: ConfigValue] = [:]) {
        self.values = values
    }

    public subscript(path: String) -> ConfigValue? {
        get { values[path] }
        set { values[path] = newValue }
    }

    private func value(_ path: String) -> ConfigValue {
        guard let value = values[path] else { preconditionFailure("no configuration key `\(path)`") }
        return value
    }

    public func boolean(_ path: String) -> Bool {
        guard case .boolean(let v) = value(path) else { preconditionFailure("`\(path)` is not a boolean") }
        return v
    }

    public func integer(_ path: String) -> Int {
        guard case .integer(let v) = value(path) else { preconditionFailure("`\(path)` is not an integer") }
        return v
    }

    /// A number; integer keys are converted.
    public func number(_ path: String) -> Double {
        switch value(path) {
        case .number(let v): return v
        case .integer(let v): return Double(v)
        default: preconditionFailure("`\(path)` is not a number")
        }
    }

    public func string(_ path: String) -> String {
        guard case .string(let v) = value(path) else { preconditionFailure("`\(path)` is not a string") }
        return v
    }

    public func vector3(_ path: String) -> SIMD3<Double> {
        guard case .vector3(let v) = value(path) else { preconditionFailure("`\(path)` is not a vector") }
        return v
    }

    public func matrix3(_ path: String) -> ConfigMatrix3 {
        guard case .matrix3(let v) = value(path) else { preconditionFailure("`\(path)` is not a matrix") }
        return v
    }

    public func list(_ path: String) -> [ConfigTable] {
        guard case .list(let v) = value(path) else { preconditionFailure("`\(path)` is not a list") }
        return v
    }
}
