/// `HOST:PORT` (or `[IPv6]:PORT`) split into its parts.
public struct TelemetryAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`; the error says what is wrong with the text.
    public init(parsing text: String) throws(TelemetryError) {
        guard let colon = text.lastIndex(of: ":") else {
            throw TelemetryError("`\(text)`: expected HOST:PORT, e.g. 127.0.0.1:14550")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw TelemetryError("`\(text)`: the host is missing (HOST:PORT)") }
        guard let port = UInt16(text[text.index(after: colon)...]), port > 0 else {
            throw TelemetryError("`\(text)`: the port must be a number from 1 to 65535")
        }
        self.init(host: host, port: port)
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// A telemetry setup or network problem, in words for the user.
public struct TelemetryError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
