import Synchronization

/// A one-slot hand-over of new settings from a non-real-time thread to the tick.
///
/// SIGHUP reload parses and validates the new configuration on its own thread, then `post`s
/// the result here; the tick calls `take` between ticks and applies what it finds. Neither
/// side ever waits: `post` fails while the tick has not taken the previous value yet, and
/// `take` returns `nil` unless a whole value is ready. The slot is allocated once, at start-up.
public final class SettingsMailbox<Value: Sendable>: @unchecked Sendable {
    // 0 empty, 1 being written, 2 full, 3 being read.
    @usableFromInline let state = Atomic<UInt8>(0)
    @usableFromInline let slot: UnsafeMutablePointer<Value?>

    public init() {
        slot = .allocate(capacity: 1)
        slot.initialize(to: nil)
    }

    deinit {
        slot.deinitialize(count: 1)
        slot.deallocate()
    }

    /// Offers `value` to the tick; false when the previous value has not been taken yet.
    public func post(_ value: Value) -> Bool {
        guard state.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged else { return false }
        slot.pointee = value
        state.store(2, ordering: .releasing)
        return true
    }

    /// The posted value, once; `nil` when there is none. Called by the tick: no waiting.
    @inlinable
    public func take() -> Value? {
        guard pending else { return nil }
        return takeSlow()
    }

    /// True when a value waits (one relaxed load: cheap enough for every tick).
    @inlinable
    public var pending: Bool { stateValue == 2 }

    @usableFromInline
    var stateValue: UInt8 { state.load(ordering: .relaxed) }

    @inlinable
    func takeSlow() -> Value? {
        guard state.compareExchange(expected: 2, desired: 3, ordering: .acquiring).exchanged else { return nil }
        let value = slot.pointee
        slot.pointee = nil
        state.store(0, ordering: .releasing)
        return value
    }
}
