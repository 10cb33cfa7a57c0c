import PoiseControl
import Synchronization

/// The wheel encoders' running counts, handed from the thread that decodes them (a libgpiod
/// edge-event reader, or the simulated encoder) to the tick: two relaxed atomic loads per
/// tick, never a wait. Each count is written by one thread only.
public final class WheelEncoderState: Sendable {
    let left = Atomic<Int64>(0)
    let right = Atomic<Int64>(0)

    public init() {}

    /// The decoder's side: the counts so far.
    public func set(left: Int64, right: Int64) {
        self.left.store(left, ordering: .relaxed)
        self.right.store(right, ordering: .relaxed)
    }

    /// The tick's side. The two loads are not one snapshot; a count one edge behind is as
    /// good as a count read a microsecond earlier.
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public func read() -> WheelCounts {
        WheelCounts(left: left.load(ordering: .relaxed), right: right.load(ordering: .relaxed))
    }
}
