import PoiseControl
import PoiseFlightCore

/// The first time a run failed safe, and why, for its summary: a line a user reads after the
/// run (the robot lying on its side) that names the cause, its size and time, and what
/// avoids it. Taken from the records the reporter sees.
public struct FailsafeNote: Sendable, Equatable {
    /// Sensor time of the failsafe, s.
    public var time: Double
    public var reason: SafetyReason
    /// How long the loop stalled, for a stall, ms.
    public var stallMilliseconds: Double
    /// The stall limit it exceeded, ms.
    public var stallLimitMilliseconds: Double
    /// The run armed again after it.
    public var rearmed = false

    /// The first failsafe in `record`, if it is one (the stop of a run is not).
    static func first(_ r: TickRecord, safety: SafetySettings?) -> FailsafeNote? {
        guard r.armState == .failsafe, r.eventReason != .none, r.eventReason != .stopRequested else { return nil }
        return FailsafeNote(time: r.time, reason: r.eventReason, stallMilliseconds: Double(r.stallNanoseconds) / 1e6,
                            stallLimitMilliseconds: (safety?.stallTime ?? 0.02) * 1000)
    }

    /// `the outputs failed safe at 4.2 s: …`, and for a stall what avoids it.
    public var text: String {
        func ms(_ x: Double) -> String { String((x * 10).rounded() / 10) }
        var line = "the outputs failed safe at \(String((time * 100).rounded() / 100)) s"
        switch reason {
        case .stall:
            line += ": the loop stalled for \(ms(stallMilliseconds)) ms, longer than safety.stall_ms (\(ms(stallLimitMilliseconds)) ms)"
        default:
            line += ": \(reason.text)"
        }
        line += rearmed ? "; it armed again afterwards" : "; they stayed safe for the rest of the run"
        if reason == .stall {
            line += ". A stall is the loop thread not being scheduled (a busy desktop, swapping): "
                + "run it with real-time priority (loop.realtime_priority with CAP_SYS_NICE, sudo, or `ulimit -r`), "
                + "on a quieter machine, or allow a longer safety.stall_ms"
        }
        return line
    }
}
