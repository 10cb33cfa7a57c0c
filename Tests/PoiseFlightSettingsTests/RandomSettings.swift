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
        settings.rig.armSwitch = Bool.random(using: &random) ? RigSettings.ArmSwitch(chip: "pinctrl-rp1", line: 0) : nil
        settings.rig.encoders = Bool.random(using: &random)
            ? RigSettings.WheelEncoders(chip: "gpiochip4", leftA: 0, leftB: 0, rightA: 0, rightB: 0) : nil
        settings.rig.telemetryAddress = Bool.random(using: &random) ? "192.168.1.20:14550" : nil
        settings.rig.telemetry.signingKeyFile = Bool.random(using: &random) ? "keys/ground ü.key" : nil
        settings.rig.telemetry.world = WorldAxes.allCases.randomElement(using: &random)!
        settings.rig.gamepad.device = Bool.random(using: &random) ? "/dev/input/event3" : nil
        settings.rig.gamepad.x.axis = GamepadAxis.allCases.randomElement(using: &random)!
        settings.rig.gamepad.armButton = GamepadButton.allCases.randomElement(using: &random)!
        settings.pca9685.address = UInt8.random(in: 0x40...0x7F, using: &random)
        settings.pca9685.frequencyHz = Double.random(in: 24...1526, using: &random)
        settings.pwmSysfsRoot = Bool.random(using: &random) ? "/tmp/pwm tree" : "/sys/class/pwm"
        settings.recordedConfiguration = (0..<Int.random(in: 0...5, using: &random)).map { "# config| line \($0): ü" }
        settings.rig.setpointFile = Bool.random(using: &random) ? "steps.csv" : ""
        var filler = RandomFiller(random: random)
        try! settings.code(&filler)
        // Drawn after the filler, which turns a byte of 1 into 0 or 1 (no register field's 0).
        settings.rig.sensor.accelerometerRange = MPU9250Settings.AccelerometerRange.allCases.randomElement(using: &filler.random)!
        settings.rig.sensor.gyroscopeRange = MPU9250Settings.GyroscopeRange.allCases.randomElement(using: &filler.random)!
        settings.rig.sensor.gyroscopeBandwidth = MPU9250Settings.GyroscopeBandwidth.allCases.randomElement(using: &filler.random)!
        settings.rig.sensor.accelerometerBandwidth = MPU9250Settings.AccelerometerBandwidth.allCases.randomElement(using: &filler.random)!
        settings.rig.sensor.magnetometerMode = [AK8963Mode.powerDown, .single16Bit, .continuous8Hz, .continuous100Hz]
            .randomElement(using: &filler.random)!
        settings.rig.sensor.mounting = Mounting.all.randomElement(using: &filler.random)!
        settings.rig.armSwitch?.bias = RigSettings.ArmSwitch.Bias.allCases.randomElement(using: &filler.random)!
        return settings
    }
}
