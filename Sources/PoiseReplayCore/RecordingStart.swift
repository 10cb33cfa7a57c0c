import PoiseControl
import PoiseFlightCore
import PoiseFusion

/// Where a recording starts: at the first tick that has something to record, not at the
/// loop's first tick.
///
/// The loop ticks from the moment it starts, while the driver is still configuring the chip
/// and before its first sample (about 0.1 s: a hundred ticks at 1 kHz). Such a start-up tick
/// has nothing in it — no sample, no read failure, no stop, no fault, no event, outputs
/// disarmed, the filter still initialising — and a recording leaves it out, so its first row
/// is the first tick with a sample (or the first that did anything else: a failed read, a
/// lost sensor, a stop before the first sample).
///
/// Leaving them out changes no replay. A start-up tick changes nothing a later tick reads:
/// the filter, the start-up gyroscope bias and the sample clock see samples only, and the
/// arming supervisor cannot start counting towards arming while the filter is initialising.
/// The one thing a later tick takes from it is its time, which the next tick's outputs read
/// only when they are driven (the slew limit's step); so when the first recorded tick arms,
/// the last start-up tick is recorded before it after all.
public struct RecordingStart: Sendable {
    /// A tick was recorded: every tick from now on is.
    public private(set) var started = false
    /// How many start-up ticks were left out.
    public private(set) var ticksLeftOut = 0
    var last: TickRecord? = nil

    public init() {}

    /// A tick with nothing to record and nothing a later tick depends on (see above). Its
    /// overrun streak may be above 0 (a busy start): only reaching the limit, an event, matters.
    public static func isEmptyStartup(_ r: TickRecord) -> Bool {
        !r.sampleValid && !r.readFailed && r.sensorState != .lost && !r.stopRequested && !r.outputFaulted
            && !r.gyroscopeClipped && r.stallNanoseconds == 0
            && r.armState == .disarmed && r.eventReason == .none && r.filterFlags.contains(.initialising)
    }

    /// Hands `write` the records to record for tick `r`: none for a start-up tick, else `r`
    /// (preceded by the last start-up tick when `r` is the first recorded and arms).
    public mutating func admit(_ r: TickRecord, write: (TickRecord) -> Void) {
        if started { return write(r) }
        if Self.isEmptyStartup(r) {
            last = r
            ticksLeftOut += 1
            return
        }
        started = true
        if r.armState == .armed, let previous = last {
            ticksLeftOut -= 1
            write(previous)
        }
        last = nil
        write(r)
    }
}
