import PoiseControl
import PoiseDeviceSettings
import PoiseFlightSettings
import PoiseFusion
import PoiseHAL
import PoiseMath
import PoiseOutputs

/// A coder that overwrites every number of a value with random bits (NaNs, infinities and
/// signed zeros among them) and every flag with a random flag, leaving names, counts and
/// tags as they are: run over a value whose cases were drawn, it makes every field random.
struct RandomFiller: SettingsCoder {
    var random: DeterministicRandom
    var offset: Int { 0 }

    mutating func code(_ value: inout UInt8) throws(CompiledSettingsError) {
        // 0 and 1 are flags (or the first two cases of a tag, both valid); leave the rest.
        if value <= 1 { value = UInt8(random.next() & 1) }
    }
    mutating func code(_ value: inout UInt32) throws(CompiledSettingsError) { value = UInt32(truncatingIfNeeded: random.next()) }
    mutating func code(_ value: inout UInt64) throws(CompiledSettingsError) { value = random.next() }
    mutating func code(_ value: inout String) throws(CompiledSettingsError) {}
    mutating func codeCount(_ count: inout UInt32) throws(CompiledSettingsError) {}
    mutating func section(_ tag: SectionTag, _ body: (inout RandomFiller) throws(CompiledSettingsError) -> Void) throws(CompiledSettingsError) {
        try body(&self)
    }
}

enum RandomSettings {
    /// Settings with every case drawn (filter kind, controller, hardware, frame, mounting,
    /// notch modes) and every number random.
    static func make(seed: UInt64) -> FlightSettings {
        var random = DeterministicRandom(seed: seed)
        var settings = FlightSettings()
        settings.filter.kind = FilterKind.allCases.randomElement(using: &random)!
        switch random.next() % 3 {
        case 0: settings.controller = .none
        case 1: settings.controller = .balance(BalanceSettings())
        default: settings.controller = .quad(QuadSettings(frame: QuadFrame.allCases.randomElement(using: &random)!))
        }
        settings.safety.armSource = [ArmSource.automatic, .armSwitch, .command].randomElement(using: &random)!
        settings.safety.rearm = Bool.random(using: &random) ? .never : .whenLevel
        for index in settings.gyroFilters.notches.indices {
            settings.gyroFilters.notches[index].mode = GyroNotchSettings.Mode.allCases.randomElement(using: &random)!
        }
        settings.channels = (0..<Int(random.next() % 6)).map { index in
            let signal = OutputSignal.allCases.randomElement(using: &random)!
            let hardware: OutputChannelSpec.Hardware = switch random.next() % 3 {
            case 0: .gpio(GPIOLineRequest(chip: "gpiochip\(index)", line: 0, drive: GPIODrive.allCases.randomElement(using: &random)!,
                                          consumer: "poise ü \(index)"))
            case 1: .pwm(chip: 0, channel: index, periodNanoseconds: 0, polarity: PWMPolarity.allCases.randomElement(using: &random)!)
            default: .pca9685(channel: index)
            }
            let kind: ChannelMapping.Kind = Bool.random(using: &random) ? .level(threshold: 0.5) : .pulse(periodNanoseconds: 20_000)
            return OutputChannelSpec(name: "out\(index)_ä", hardware: hardware, mapping: ChannelMapping(signal: signal, kind: kind))
        }
        settings.frame = OutputFrame(name: OutputFrame.names.randomElement(using: &random)!)!
        settings.mounting = Mounting.all.randomElement(using: &random)!
        settings.setpoints.driveScript = (0..<Int(random.next() % 5)).map { _ in
            DriveScriptRow(time: 0, setpoint: DriveSetpoint())
        }
        var filler = RandomFiller(random: random)
        try! settings.code(&filler)
        return settings
    }
}
