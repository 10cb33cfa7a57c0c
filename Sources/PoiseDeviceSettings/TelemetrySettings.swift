import PoiseMath

// The telemetry stream's settings, a plain value type below the configuration: the
// `telemetry.*` keys are bound straight to these fields (PoiseConfig), so each default is
// written here only.

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
    /// Take commands, parameter writes and setpoints from an unsigned link (loopback only).
    public var acceptCommands = false
    /// File of the 32-byte MAVLink 2 signing key; nil: the link is not signed.
    public var signingKeyFile: String? = nil
    /// Live setpoints older than this are lost (the robot brakes to a stop, the quad fails safe), s.
    public var setpointTimeout: Double = 0.5
    /// Incoming frames handled per second at most (a flood is counted and dropped).
    public var maximumIncomingRate: Double = 200

    public init() {}
}
