import PoiseControl
import PoiseFlightCore
import PoiseFusion

/// The line printed when the estimate stops or starts being established (the tick only sets
/// `FilterFlags.notConverged`): why it was lost, and what arming waits for.
enum ConvergenceMessage {
    static func text(_ r: TickRecord, converged: Bool) -> String {
        if converged {
            return "filter converged again: the accelerometer agreed with the estimate within 2° for 0.5 s at rest"
        }
        let cause = r.gyroscopeClipped ? "the gyroscope clipped at the end of its range"
            : r.stallNanoseconds > 0 || r.filterFlags.contains(.stale) ? "the loop stalled"
            : r.armState == .failsafe ? "the outputs failed safe" : "the estimate was lost"
        return "filter not converged: \(cause); arming waits until the board is at rest and the "
            + "accelerometer confirms the estimate (0.5 s within 2°)"
    }
}
