import PoiseMath

/// What the telemetry stream sends, how often, and as whom.
public struct TelemetrySettings: Sendable, Equatable {
    /// MAVLink system and component id of the frames.
    public var systemID: UInt8 = 1
    public var componentID: UInt8 = 1
    /// Rates, Hz; 0 turns a message off.
    /// HEARTBEAT.
    public var heartbeatHz: Double = 1
    /// ATTITUDE and ATTITUDE_QUATERNION.
    public var attitudeHz: Double = 50
    /// SCALED_IMU.
    public var imuHz: Double = 10
    /// SERVO_OUTPUT_RAW.
    public var outputsHz: Double = 10
    /// SYS_STATUS and the NAMED_VALUE_FLOAT loop statistics.
    public var statusHz: Double = 2
    /// World layout of the records' attitudes (from `frame.output`).
    public var world: WorldAxes = .enu
    /// Output channels that carry a logic level (GPIO), bit per channel: sent as 0/1; all
    /// others carry a PWM high time in ns and are sent in µs.
    public var levelChannels: UInt16 = 0
    /// Wall-clock time (s since 1970) at sensor time 0, when the producer knows it: then
    /// SYSTEM_TIME goes out with each HEARTBEAT, so receivers can measure a sample's age.
    public var unixTimeAtSensorZero: Double? = nil

    public init() {}
}

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
