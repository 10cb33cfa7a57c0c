import Synchronization

/// The latest value from one writer thread for any number of reads on one reader thread,
/// with neither side ever waiting (triple buffering).
///
/// The writer (the tick) fills its own back slot and publishes it with one atomic exchange;
/// the reader swaps the newest published slot into its front slot. No slot is ever read
/// while it is written, so a read is never torn. Slots are allocated once, at start-up.
public final class TripleBuffer<Value: BitwiseCopyable>: @unchecked Sendable {
    // Bits 0–1: index of the middle slot; bit 2: set when the middle slot is newer than the
    // reader's front slot.
    private let middle = Atomic<UInt8>(1)
    private let slots: UnsafeMutablePointer<Value>
    private var back: UInt8 = 0   // writer's own
    private var front: UInt8 = 2  // reader's own

    public init(initial: Value) {
        slots = .allocate(capacity: 3)
        slots.initialize(repeating: initial, count: 3)
    }

    deinit { slots.deallocate() }

    /// Publishes `value` (writer thread only). No allocation, no lock.
    public func publish(_ value: Value) {
        slots[Int(back)] = value
        let previous = middle.exchange(back | 4, ordering: .acquiringAndReleasing)
        back = previous & 3
    }

    /// The newest published value (reader thread only), and whether it is new since the
    /// previous call.
    public func latest() -> (value: Value, isNew: Bool) {
        var isNew = false
        if middle.load(ordering: .relaxed) & 4 != 0 {
            let previous = middle.exchange(front, ordering: .acquiringAndReleasing)
            front = previous & 3
            isNew = true
        }
        return (slots[Int(front)], isNew)
    }
}
