import PoiseControl
import PoiseFlightCore
import PoiseFusion
import PoiseLoop
import PoiseMath
import PoiseTelemetry
import PoiseThreads

/// The ground station's arming commands and sticks, for every ``GroundStation``: the host's
/// link and the board's answer them the same way.
public struct CommandArming: Sendable {
    public var safety: SafetySettings
    let pilot: ManualControlMailbox
    let newestRecord: @Sendable () -> TickRecord?

    public init(safety: SafetySettings, pilot: ManualControlMailbox, newestRecord: @escaping @Sendable () -> TickRecord?) {
        self.safety = safety
        self.pilot = pilot
        self.newestRecord = newestRecord
    }

    /// Arming by command: refused with its reason unless the source is `command` and the
    /// newest tick met every arming condition; otherwise handed to the tick, whose supervisor
    /// applies the same rules again. A disarm always works, whatever arms the outputs; it
    /// holds until that source arms again by its own rule (``ArmingSupervisor/disarmHeld``).
    public func arm(_ arm: Bool) -> CommandOutcome {
        guard arm else {
            pilot.request(.disarm)
            return CommandOutcome(.accepted)
        }
        guard safety.armSource == .command else {
            return CommandOutcome(.denied, "arming refused: safety.arm_source is not `command`")
        }
        guard let record = newestRecord() else { return CommandOutcome(.temporarilyRejected, "arming refused: not running yet") }
        if let reason = Self.refusal(record, safety: safety) {
            return CommandOutcome(.temporarilyRejected, "arming refused: " + reason)
        }
        pilot.request(.arm)
        guard safety.armHoldTime > 0 else { return CommandOutcome(.accepted) }
        return CommandOutcome(.accepted, "arming once level, healthy and converged for safety.arm_hold_s ("
                              + String(safety.armHoldTime) + " s)")
    }

    /// A MANUAL_CONTROL from an accepted source, stamped with the loop's clock (CLOCK_MONOTONIC
    /// s), as the gamepad's sticks are.
    public func manualControl(_ message: ManualControlMessage) {
        pilot.publish(PilotMapping.control(message), at: Double(monotonicNanoseconds()) * 1e-9)
    }

    /// Why the supervisor would refuse to arm in the state `record` shows, or nil: asked of
    /// ``ArmingSupervisor/refusal(_:settings:)``, worded here.
    public static func refusal(_ record: TickRecord, safety: SafetySettings) -> String? {
        let conditions = ArmingConditions(state: record.armState,
                                          sensorHealthy: record.sampleValid && !record.readFailed && record.sensorState != .lost,
                                          estimatorReady: !record.filterFlags.contains(.initialising),
                                          attitudeConverged: !record.filterFlags.contains(.notConverged), tilt: record.attitude.tilt)
        return ArmingSupervisor.refusal(conditions, settings: safety).map(text)
    }

    /// A refusal in the words the ground station shows.
    public static func text(_ refusal: ArmingRefusal) -> String {
        switch refusal {
        case .failsafe: "in failsafe until the fault clears"
        case .sensorUnhealthy: "unhealthy: no good sensor sample"
        case .filterInitialising: "not converged: filter initialising"
        case .attitudeNotEstablished: "not converged: attitude not re-established"
        case .notLevel(let tilt, let limit):
            "not level: " + degrees(tilt) + " > " + degrees(limit) + " deg (safety.arm_tilt_deg)"
        }
    }

    /// Degrees with one decimal, in plain ASCII: a ground station shows STATUSTEXT as ASCII.
    static func degrees(_ radians: Float) -> String {
        let tenths = (Double(radians) * 1800 / .pi).rounded()
        let sign = tenths < 0 ? "-" : ""
        let magnitude = Int(abs(tenths))
        return sign + String(magnitude / 10) + "." + String(magnitude % 10)
    }
}
