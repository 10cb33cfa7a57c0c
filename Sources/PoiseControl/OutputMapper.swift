
/// Maps each tick's ``SignalFrame`` to the physical value of every output channel.
///
/// While not live (disarmed, failsafe, stopping) every channel holds its safe value. Slew
/// limits act on the output (high time), starting from the safe value clamped into the
/// channel's range, so becoming live never jumps. A NaN signal gives the safe value.
/// Fixed size and value-typed: `map` allocates nothing and takes no locks.
public struct OutputMapper: Sendable {
    public static let capacity = ChannelCommands.capacity
    /// Channels in use.
    public let count: Int
    @usableFromInline var mappings: InlineArray<16, ChannelMapping>
    /// The slew limiter's current high time per pulse channel, ns.
    @usableFromInline var current: InlineArray<16, Float>

    /// At most ``capacity`` mappings, in channel order.
    public init(_ mappings: [ChannelMapping]) {
        precondition(mappings.count <= Self.capacity, "at most \(Self.capacity) output channels")
        count = mappings.count
        let idle = ChannelMapping.level(.fault)
        self.mappings = InlineArray(repeating: idle)
        current = InlineArray(repeating: 0)
        for (index, mapping) in mappings.enumerated() {
            self.mappings[index] = mapping
            current[index] = Self.restingPoint(mapping)
        }
    }

    public func mapping(_ channel: Int) -> ChannelMapping { mappings[channel] }

    /// Takes `other`'s mappings (a SIGHUP reload) but keeps the slew limiters where they
    /// are, so a retuned output moves on from its present value instead of jumping. Both
    /// must have the same channel count (the hardware cannot change while running).
    public mutating func adoptMappings(of other: OutputMapper) {
        guard other.count == count else { return }
        mappings = other.mappings
    }

    /// Every channel's safe value.
    public var safeCommands: ChannelCommands {
        var commands = ChannelCommands(count: count)
        for index in 0..<count { commands[index] = mappings[index].safeValue }
        return commands
    }

    /// The physical values for this tick; `dt` is the tick period, s.
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func map(_ frame: SignalFrame, live: Bool, dt: Float) -> ChannelCommands {
        var commands = ChannelCommands(count: count)
        for index in 0..<count {
            let mapping = mappings[index]
            let signal = frame.values[mapping.signal.index]
            guard live, !signal.isNaN else {
                commands[index] = mapping.safeValue
                current[index] = Self.restingPoint(mapping)
                continue
            }
            switch mapping.kind {
            case .level(let threshold):
                commands[index] = (signal >= threshold) != mapping.invert ? 1 : 0
            case .pulse:
                let target = Self.highTime(signal, mapping)
                var next = target
                if mapping.slewRate > 0 {
                    let span = mapping.inputMax - mapping.inputMin
                    let perSignal = span > 0 ? abs(mapping.outputMaxNanoseconds - mapping.outputMinNanoseconds) / span : 0
                    let step = mapping.slewRate * perSignal * max(dt, 0)
                    next = current[index] + min(max(target - current[index], -step), step)
                }
                current[index] = next
                commands[index] = UInt32(max(next, 0) + 0.5)  // round half up; `rounded()` is not allowed here
            }
        }
        return commands
    }

    /// High time for a signal: clamp, normalise, invert, scale. ns.
    @inlinable
    static func highTime(_ signal: Float, _ mapping: ChannelMapping) -> Float {
        let clamped = min(max(signal, mapping.inputMin), mapping.inputMax)
        let span = mapping.inputMax - mapping.inputMin
        var fraction = span > 0 ? (clamped - mapping.inputMin) / span : 0
        if mapping.invert { fraction = 1 - fraction }
        return mapping.outputMinNanoseconds + fraction * (mapping.outputMaxNanoseconds - mapping.outputMinNanoseconds)
    }

    /// Where the slew limiter starts on becoming live: the safe value, clamped into the range.
    @inlinable
    static func restingPoint(_ mapping: ChannelMapping) -> Float {
        let low = min(mapping.outputMinNanoseconds, mapping.outputMaxNanoseconds)
        let high = max(mapping.outputMinNanoseconds, mapping.outputMaxNanoseconds)
        return min(max(Float(mapping.safeValue), low), high)
    }
}
