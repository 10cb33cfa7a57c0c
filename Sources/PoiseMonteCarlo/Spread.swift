/// How one number of a trial's world is drawn.
public enum SpreadDistribution: Sendable, Equatable {
    /// Always this value.
    case fixed(Double)
    /// Uniform within ± this fraction of the configuration's own value.
    case relative(Double)
    /// Uniform between the two bounds.
    case uniform(Double, Double)
    /// Normal, truncated to the key's allowed range (drawn again until inside it).
    case normal(mean: Double, sd: Double)
}

/// How a key's value is drawn: a number key takes one distribution; a vector key takes one
/// per component (the same one three times, or three), or a length in a random direction.
public enum SpreadForm: Sendable, Equatable {
    case scalar(SpreadDistribution)
    case components([SpreadDistribution])
    /// A vector of this length pointing in a direction uniform on the sphere.
    case magnitude(SpreadDistribution)
}

/// One line of a spread: the configuration key it draws and how, and where it was written.
public struct SpreadEntry: Sendable, Equatable {
    public var path: String
    public var form: SpreadForm
    public var line: Int
    public var column: Int
}

/// The worlds `poise simulate --trials` draws from: configuration keys, each with a
/// distribution, read from a spread file (``SpreadParser``) or built in (``DefaultSpread``).
public struct Spread: Sendable, Equatable {
    /// The file the spread came from, for messages and reproduce commands.
    public var name: String
    /// In file order: trials draw them in this order.
    public var entries: [SpreadEntry]
}
