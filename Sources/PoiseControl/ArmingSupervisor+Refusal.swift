/// Why the supervisor would not arm on a request now (the ground station's command, the
/// gamepad's button). Static data, no text: whoever asks words it (a ground station shows
/// ASCII).
public enum ArmingRefusal: Sendable, Equatable {
    /// In failsafe: it returns to disarmed once the fault clears.
    case failsafe
    /// No good sensor sample: a failed read, a lost sensor, no new sample in time.
    case sensorUnhealthy
    /// The filter is still initialising (or the start-up gyroscope bias is not known yet).
    case filterInitialising
    /// The attitude, lost to clipping, a stall or a failsafe, is not re-established yet.
    case attitudeNotEstablished
    /// Tilted beyond ``SafetySettings/armTilt`` (both rad).
    case notLevel(tilt: Float, limit: Float)
}

/// What a request to arm is judged by, as a tick last saw it.
public struct ArmingConditions: Sendable, Equatable {
    public var state: ArmState
    /// A good sample in time: no failed read, the sensor not lost.
    public var sensorHealthy: Bool
    /// ``SafetyInputs/estimatorReady``.
    public var estimatorReady: Bool
    /// ``SafetyInputs/attitudeConverged``.
    public var attitudeConverged: Bool
    /// Angle between body z and world vertical, rad.
    public var tilt: Float

    public init(state: ArmState, sensorHealthy: Bool, estimatorReady: Bool, attitudeConverged: Bool, tilt: Float) {
        self.state = state
        self.sensorHealthy = sensorHealthy
        self.estimatorReady = estimatorReady
        self.attitudeConverged = attitudeConverged
        self.tilt = tilt
    }
}

extension ArmingSupervisor {
    /// Would a request to arm be taken now, and if not, why: the rules ``update(_:)`` applies
    /// to a request (no fault, then ``readiness(estimatorReady:attitudeConverged:tilt:armTilt:)``),
    /// asked of the conditions a tick showed. Nil when armed already or when it would arm.
    public static func refusal(_ conditions: ArmingConditions, settings: SafetySettings) -> ArmingRefusal? {
        switch conditions.state {
        case .armed: return nil
        case .failsafe: return .failsafe
        case .disarmed: break
        }
        if !conditions.sensorHealthy { return .sensorUnhealthy }
        return readiness(estimatorReady: conditions.estimatorReady, attitudeConverged: conditions.attitudeConverged,
                         tilt: conditions.tilt, armTilt: settings.armTilt)
    }

    /// The arming conditions besides the faults, in the order a refusal names them: the one
    /// place ``update(_:)`` and ``refusal(_:settings:)`` read them from.
    @inline(__always)
    static func readiness(estimatorReady: Bool, attitudeConverged: Bool, tilt: Float, armTilt: Float) -> ArmingRefusal? {
        if !estimatorReady { return .filterInitialising }
        if !attitudeConverged { return .attitudeNotEstablished }
        if !(tilt <= armTilt) { return .notLevel(tilt: tilt, limit: armTilt) }
        return nil
    }
}
