import PoiseControl
import Synchronization

/// Hands a pilot's latest sticks (and arm/disarm requests) from a receiving thread — the
/// ground station's link, a gamepad reader — to the tick, without a lock and without
/// allocating. One writer at a time; the tick only reads.
///
/// A sequence lock: the writer makes the sequence odd, stores the fields, makes it even
/// again; the reader keeps a copy only when it saw the same even sequence before and after.
/// The tick tries a bounded number of times and otherwise keeps what it had, so a writer
/// preempted mid-write can never stall it.
public final class ManualControlMailbox: Sendable {
    /// What the tick may be asked to do about arming; taken once.
    public enum ArmRequest: UInt8, Sendable {
        case none = 0
        case arm = 1
        case disarm = 2
    }

    private let sequence = Atomic<UInt64>(0)
    private let x = Atomic<UInt32>(0)
    private let y = Atomic<UInt32>(0)
    private let z = Atomic<UInt32>(0)
    private let r = Atomic<UInt32>(0)
    private let buttons = Atomic<UInt32>(0)
    /// When the sticks were received, in the loop clock's seconds, as the bits of a Double.
    private let receivedAt = Atomic<UInt64>(0)
    private let armRequest = Atomic<UInt8>(0)

    public init() {}

    /// Stores the latest sticks, received at `time` (seconds on the loop's clock).
    public func publish(_ control: ManualControl, at time: Double) {
        let start = sequence.load(ordering: .relaxed) &+ 1
        sequence.store(start, ordering: .releasing)
        x.store(control.x.bitPattern, ordering: .relaxed)
        y.store(control.y.bitPattern, ordering: .relaxed)
        z.store(control.z.bitPattern, ordering: .relaxed)
        r.store(control.r.bitPattern, ordering: .relaxed)
        buttons.store(control.buttons, ordering: .relaxed)
        receivedAt.store(time.bitPattern, ordering: .relaxed)
        sequence.store(start &+ 1, ordering: .releasing)
    }

    /// Asks the tick to arm or disarm (it still applies the arming rules).
    public func request(_ request: ArmRequest) {
        armRequest.store(request.rawValue, ordering: .releasing)
    }

    /// The latest sticks and when they arrived; nil before the first, or when a write was in
    /// progress on every try (the caller keeps its previous copy).
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public func latest() -> (control: ManualControl, receivedAt: Double)? {
        for _ in 0..<4 {
            let before = sequence.load(ordering: .acquiring)
            if before == 0 { return nil }
            if before & 1 == 1 { continue }
            let control = ManualControl(x: Float(bitPattern: x.load(ordering: .relaxed)),
                                        y: Float(bitPattern: y.load(ordering: .relaxed)),
                                        z: Float(bitPattern: z.load(ordering: .relaxed)),
                                        r: Float(bitPattern: r.load(ordering: .relaxed)),
                                        buttons: buttons.load(ordering: .relaxed))
            let time = Double(bitPattern: receivedAt.load(ordering: .relaxed))
            if sequence.load(ordering: .acquiring) == before { return (control, time) }
        }
        return nil
    }

    /// The pending arm/disarm request, cleared as it is taken.
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public func takeArmRequest() -> ArmRequest {
        ArmRequest(rawValue: armRequest.exchange(0, ordering: .acquiringAndReleasing)) ?? .none
    }
}
