import PoiseFlightCore
import Synchronization

/// A single-producer, single-consumer ring of tick records.
///
/// The producer (the tick) copies a record in with two atomic loads/stores and no lock or
/// allocation; when the consumer has fallen behind and the ring is full the record is dropped
/// and counted, so the tick never waits. Storage is allocated and written once, at creation,
/// so that no page of it is first touched (a page fault) inside a tick.
public final class TickRecordRing: @unchecked Sendable {
    public let capacity: Int
    let slots: UnsafeMutablePointer<TickRecord>
    /// Records written (producer-owned) and read (consumer-owned), monotonically increasing.
    let written = Atomic<Int>(0)
    let read = Atomic<Int>(0)
    let droppedCount = Atomic<Int>(0)

    public init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: TickRecord(), count: capacity)
    }

    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    /// Producer side: queues a copy of `record`; false (and counted) when the ring is full.
    #if !DEBUG  // checked by the optimiser in release builds (scripts/test)
    @_noAllocation @_noLocks
    #endif
    public func offer(_ record: TickRecord) -> Bool {
        let w = written.load(ordering: .relaxed)
        guard w - read.load(ordering: .acquiring) < capacity else {
            droppedCount.add(1, ordering: .relaxed)
            return false
        }
        slots[w % capacity] = record
        written.store(w + 1, ordering: .releasing)
        return true
    }

    /// Consumer side: the oldest queued record, if any.
    public func poll() -> TickRecord? {
        let r = read.load(ordering: .relaxed)
        guard r < written.load(ordering: .acquiring) else { return nil }
        let record = slots[r % capacity]
        read.store(r + 1, ordering: .releasing)
        return record
    }

    /// Records dropped because the ring was full.
    public var dropped: Int { droppedCount.load(ordering: .relaxed) }
}
