/// The time from a loop's output to the actuator acting on it (driver, PWM period, ESC
/// firmware): what the world reads off the output hardware reaches the plant `delay` later.
///
/// A ring of fixed capacity filled once, so advancing the world allocates nothing: 1024
/// changes cover the longest delay (0.5 s) at the fastest loop (2 kHz). A longer backlog
/// drops the oldest change.
public struct ActuatorDelayLine<Input: Sendable>: Sendable {
    /// s; 0 passes every input on at once.
    public let delay: Double
    /// What the actuator acts on now.
    public private(set) var current: Input
    var pending: [(time: Double, input: Input)]
    var head = 0, count = 0
    static var capacity: Int { 1024 }

    public init(delay: Double, initial: Input) {
        self.delay = delay
        current = initial
        pending = delay > 0 ? Array(repeating: (0, initial), count: Self.capacity) : []
    }

    /// `input` left the loop at `time`: it acts from `time + delay`.
    public mutating func send(_ input: Input, at time: Double) {
        if count == Self.capacity { head = (head + 1) % Self.capacity; count -= 1 }
        pending[(head + count) % Self.capacity] = (time + delay, input)
        count += 1
    }

    /// The next input that starts acting before `time` and when, taken off the line (it is
    /// ``current`` from then), or nil when none does.
    public mutating func next(before time: Double) -> (time: Double, input: Input)? {
        guard count > 0, pending[head].time < time else { return nil }
        let change = pending[head]
        head = (head + 1) % Self.capacity
        count -= 1
        current = change.input
        return change
    }
}
