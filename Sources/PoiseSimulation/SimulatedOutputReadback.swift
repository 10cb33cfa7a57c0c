// What plant models read back from the simulated output hardware each tick: the physical
// signal on each pin, after the drivers (active-low, polarity, MODE2.INVRT) have done their
// part. Plants read these instead of `ChannelCommands`, so they see what a motor driver, a
// servo or an ESC would see, including a channel the bank failed to write. See docs/outputs.md.
import PoiseOutputs

extension SimulatedGPIODevice {
    /// The pin's electrical level (active-low applied), or nil when no one requested the line.
    /// `chip` is the chip's name or label.
    public func pinLevel(chip: String, line: UInt32) -> Bool? {
        pinLevel(ofLine: lineIndex(chip: chip, line: line))
    }

    /// Where the current request of the line is kept, for `pinLevel(ofLine:)`: looked up by
    /// name once instead of on every tick. Valid until the line is released and requested again.
    public func lineIndex(chip: String, line: UInt32) -> Int? {
        guard let named = chips.first(where: { $0.name == chip || $0.label == chip })?.name else { return nil }
        return lines.lastIndex(where: { $0.chip == named && $0.offset == line && $0.requested })
    }

    /// The level of the line at `index` (from `lineIndex`), or nil when it is not requested.
    public func pinLevel(ofLine index: Int?) -> Bool? {
        guard let index, index < lines.count, lines[index].requested else { return nil }
        return lines[index].value != lines[index].activeLow
    }
}

extension SimulatedPWMFiles {
    /// Time the pin is high in each period, ns: the duty cycle with normal polarity, the rest
    /// of the period inversed; 0 while disabled or not exported.
    public func highTimeNanoseconds(chip: Int, channel: Int) -> UInt64 {
        guard chips.indices.contains(chip), chips[chip].indices.contains(channel) else { return 0 }
        let state = chips[chip][channel]
        guard state.exported, state.enabled else { return 0 }
        return state.polarity == .normal ? state.dutyNanoseconds : state.periodNanoseconds - state.dutyNanoseconds
    }

    /// The channel's period, ns (0 before one is set).
    public func periodNanoseconds(chip: Int, channel: Int) -> UInt64 {
        guard chips.indices.contains(chip), chips[chip].indices.contains(channel) else { return 0 }
        return chips[chip][channel].periodNanoseconds
    }
}

extension SimulatedPCA9685 {
    /// The PWM period PRE_SCALE gives, ns.
    public var periodNanoseconds: Double {
        Double(Int(registers[Int(PCA9685Register.preScale.rawValue)]) + 1) * 4096 / oscillatorHz * 1e9
    }

    /// Time channel `channel`'s output is high in each period, ns: 0 while asleep, waiting for
    /// RESTART or fully off; the whole period when fully on; MODE2.INVRT applied.
    public func pulseWidthNanoseconds(channel: Int) -> Double {
        let mode1 = PCA9685Mode1(rawValue: registers[0])
        guard !mode1.contains(.sleep), !restartPending else { return 0 }
        let counts = onCounts(channel)
        var high: Int
        if let off = counts.off {
            high = off == 4096 ? 4096 : (off - counts.on + 4096) % 4096
        } else {
            high = 0
        }
        if PCA9685Mode2(rawValue: registers[1]).contains(.invert) { high = 4096 - high }
        return Double(high) * periodNanoseconds / 4096
    }

    /// A register's current value, for tests.
    public func register(_ address: UInt8) -> UInt8 { registers[Int(address)] }
}
