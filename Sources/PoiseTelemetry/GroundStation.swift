// What the receive path asks of the loop it serves: parameters, arming, storage, setpoints.
// PoiseLoop implements it (the parameter table and the reload path live there).

/// MAV_RESULT.
public enum CommandResult: UInt8, Sendable {
    case accepted = 0
    case temporarilyRejected = 1
    case denied = 2
    case unsupported = 3
    case failed = 4
}

/// A command's outcome and, when refused, the reason (sent as STATUSTEXT).
public struct CommandOutcome: Sendable, Equatable {
    public var result: CommandResult
    public var reason: String?

    public init(_ result: CommandResult, _ reason: String? = nil) {
        self.result = result
        self.reason = reason
    }
}

/// The loop's side of the ground station's link. Called on the receiving thread only.
public protocol GroundStation: AnyObject, Sendable {
    /// Parameter names (16 characters at most), index order.
    var parameterNames: [String] { get }
    /// The current value of parameter `index`.
    func parameterValue(at index: Int) -> Float
    /// Sets a parameter through the reload path; the value now in force, or the reason it was refused.
    func setParameter(at index: Int, to value: Float) -> Result<Float, CommandRefusal>
    /// Why a PARAM_SET of a name not in the list is refused (a restart-only key's name), or nil
    /// when the name means nothing here (ignored, as ArduPilot does).
    func unknownParameter(_ name: String) -> String?
    /// MAV_CMD_PREFLIGHT_STORAGE: writes the current values into the configuration file.
    func storeParameters() -> CommandOutcome
    /// MAV_CMD_COMPONENT_ARM_DISARM, after the link's own checks.
    func arm(_ arm: Bool) -> CommandOutcome
    /// A MANUAL_CONTROL from an accepted source.
    func manualControl(_ message: ManualControlMessage)
}

/// Why a request was refused, in words for the ground station's operator.
public struct CommandRefusal: Error, Sendable, Equatable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
}
