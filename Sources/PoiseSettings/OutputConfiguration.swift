import PoiseConfig
import PoiseControl
import PoiseHAL
import PoiseOutputs

extension OutputBankSettings {
    /// The output channels a configuration declares, with their mappings, ready for
    /// ``OutputBank`` (hardware) and ``OutputMapper`` (`settings.channels.map(\.mapping)`).
    ///
    /// The file has passed validation, so every source is a signal and every channel has
    /// its line or channel number.
    public init(configuration: PoiseConfiguration) {
        let outputs = configuration.outputs
        let pca = PCA9685.Settings(address: UInt8(outputs.pca9685.address), frequencyHz: outputs.pca9685.frequencyHz,
                                   oscillatorHz: outputs.pca9685.oscillatorHz)
        let pcaPeriodMicroseconds = PCA9685(settings: pca).periodNanoseconds / 1000
        let channels = outputs.channels.map { channel in
            OutputChannelSpec(configuration: channel, board: configuration.board,
                              pca9685PeriodMicroseconds: pcaPeriodMicroseconds)
        }
        self.init(channels: channels, pca9685: pca, pwmSysfsRoot: outputs.pwmSysfsRoot)
    }
}

extension OutputChannelSpec {
    /// One configured channel: hardware from `kind`/`chip`/`line`/`channel`, mapping from the
    /// range, inversion, slew and safe keys.
    public init(configuration channel: PoiseConfiguration.Channel, board: PoiseConfiguration.Board,
                pca9685PeriodMicroseconds: Double) {
        let signal = OutputSignal(rawValue: channel.source) ?? .fault
        let hardware: Hardware
        var periodMicroseconds = Double(channel.periodMicroseconds)
        switch channel.kind {
        case .gpio:
            hardware = .gpio(GPIOLineRequest(
                chip: channel.chip.isEmpty ? board.gpioChip : channel.chip, line: UInt32(max(channel.line, 0)),
                activeLow: channel.activeLow, drive: GPIODrive(rawValue: channel.drive.rawValue) ?? .pushPull,
                initialValue: channel.safeValue != 0))
        case .pwm:
            hardware = .pwm(chip: channel.chip.isEmpty ? board.pwmChip : Int(channel.chip) ?? 0, channel: max(channel.channel, 0),
                            periodNanoseconds: UInt64(channel.periodMicroseconds) * 1000,
                            polarity: channel.polarity == .inversed ? .inversed : .normal)
        case .pca9685:
            hardware = .pca9685(channel: channel.channel)
            periodMicroseconds = pca9685PeriodMicroseconds
        }
        let inputMin = channel.hasInputRange ? Float(channel.inputMin) : nil
        let inputMax = channel.hasInputRange ? Float(channel.inputMax) : nil
        let mapping: ChannelMapping
        if channel.kind == .gpio {
            mapping = ChannelMapping(signal: signal, kind: .level(threshold: Float(channel.threshold)),
                                     inputMin: inputMin, inputMax: inputMax, invert: channel.invert,
                                     safeValue: UInt32(channel.safeValue))
        } else {
            let period = periodMicroseconds * 1000
            let low = channel.usesPulseRange ? channel.pulseMinMicroseconds * 1000 : channel.dutyMin * period
            let high = channel.usesPulseRange ? channel.pulseMaxMicroseconds * 1000 : channel.dutyMax * period
            let safe = channel.safeMicroseconds > 0 ? channel.safeMicroseconds * 1000 : channel.safeDuty * period
            mapping = ChannelMapping(signal: signal, kind: .pulse(periodNanoseconds: UInt32(period.rounded())),
                                     inputMin: inputMin, inputMax: inputMax,
                                     outputMinNanoseconds: Float(low), outputMaxNanoseconds: Float(high),
                                     invert: channel.invert, slewRate: Float(channel.slewRate),
                                     safeValue: UInt32(min(safe, period).rounded()))
        }
        self.init(name: channel.name, hardware: hardware, mapping: mapping)
    }
}
