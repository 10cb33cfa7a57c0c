import PoiseControl
import PoiseMath

/// The line printed for an arming transition, by the reporter thread (the tick only records
/// the state and the reason): it names the configured values rather than their keys, and
/// says what re-arming waits for.
public struct TransitionMessage {
    /// The limits the reasons refer to (the ones the run started with).
    public var safety: SafetySettings

    public init(safety: SafetySettings) { self.safety = safety }

    /// `armed — level, sensor healthy and filter initialised`, `stopped`,
    /// `failsafe — loop overran 5 ticks in a row (loop.overrun_limit)`, …
    public func text(state: ArmState, reason: SafetyReason, attitude: Quaternion) -> String {
        switch reason {
        case .stopRequested:
            return "stopped"
        case .tiltLimit:
            return "\(state.name) — tilt \(degrees(attitude.tilt)) beyond \(degrees(safety.maxTilt)) (safety.max_tilt_deg)"
        case .overrunStreak:
            return "\(state.name) — loop overran \(safety.overrunLimit) ticks in a row (loop.overrun_limit)"
        case .faultCleared:
            return "\(state.name) — fault cleared; " + rearming(attitude: attitude)
        default:
            return "\(state.name) — \(reason.text)"
        }
    }

    /// What arming again waits for, and where the attitude stands now.
    func rearming(attitude: Quaternion) -> String {
        guard safety.autoArm else { return "arming is not automatic (safety.auto_arm: false)" }
        guard safety.armTilt.isFinite else {
            return "arms again once the sensor is healthy for \(seconds(safety.armHoldTime)) (safety.arm_hold_s)"
        }
        return "arms again once level within \(degrees(safety.armTilt)) (safety.arm_tilt_deg) for "
            + "\(seconds(safety.armHoldTime)) (safety.arm_hold_s); tilt now \(degrees(attitude.tilt))"
    }

    private func degrees(_ radians: Float) -> String {
        let d = (Double(radians) * 180 / .pi * 10).rounded() / 10
        return (d == d.rounded() ? String(Int(d)) : String(d)) + "°"
    }

    private func seconds(_ s: Double) -> String {
        (s == s.rounded() ? String(Int(s)) : String(s)) + " s"
    }
}
