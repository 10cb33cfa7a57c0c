import PoiseConfig
import PoiseControl
import PoiseHAL
import PoiseOutputs
import Testing

@Test func everyConfigSignalNameIsAnOutputSignal() {
    #expect(ConfigSchema.outputSignals == OutputSignal.allCases.map(\.rawValue))
}

@Test func configuredChannelsBecomeHardwareAndMappings() throws {
    let configuration = try PoiseConfiguration.parse(text: """
        board: {gpio_chip: pinctrl-rp1}
        outputs:
          pwm_sysfs_root: /tmp/pwm
          pca9685: {address: 0x41, frequency_hz: 400}
          channels:
            - {name: pwma, kind: pwm, chip: 2, channel: 3, period_us: 50, source: left_wheel_duty, slew_rate: 4}
            - {name: ain1, kind: gpio, line: 5, source: left_wheel_forward, active_low: true, drive: open_drain}
            - {name: esc, kind: pca9685, channel: 7, source: motor1, pulse_min_us: 1000, pulse_max_us: 2000, safe_us: 1000}
            - {name: tilt, kind: pwm, channel: 0, source: pitch, input_min: -0.5, input_max: 0.5, pulse_min_us: 1000, pulse_max_us: 2000, safe_us: 1500, invert: true, polarity: inversed}
            - {name: led, kind: gpio, chip: gpiochip0, line: 17, source: fault, threshold: 0.25, safe_value: 1}
        """, file: "t.yaml")
    let settings = OutputBankSettings(configuration: configuration)
    #expect(settings.pwmSysfsRoot == "/tmp/pwm")
    #expect(settings.pca9685 == PCA9685.Settings(address: 0x41, frequencyHz: 400))
    let channels = settings.channels
    #expect(channels.map(\.name) == ["pwma", "ain1", "esc", "tilt", "led"])
    #expect(channels[0].hardware == .pwm(chip: 2, channel: 3, periodNanoseconds: 50_000, polarity: .normal))
    #expect(channels[0].mapping == ChannelMapping(signal: .leftWheelDuty, kind: .pulse(periodNanoseconds: 50_000),
                                                  outputMinNanoseconds: 0, outputMaxNanoseconds: 50_000, slewRate: 4))
    #expect(channels[1].hardware == .gpio(GPIOLineRequest(chip: "pinctrl-rp1", line: 5, activeLow: true, drive: .openDrain)))
    #expect(channels[1].mapping == .level(.leftWheelForward))
    #expect(channels[2].hardware == .pca9685(channel: 7))
    #expect(channels[2].mapping.safeValue == 1_000_000 && channels[2].mapping.outputMaxNanoseconds == 2_000_000)
    #expect(channels[2].mapping.kind == .pulse(periodNanoseconds: 2_457_600), "the period the prescaler gives")
    #expect(channels[3].hardware == .pwm(chip: 0, channel: 0, periodNanoseconds: 20_000_000, polarity: .inversed))
    #expect(channels[3].mapping.inputMin == -0.5 && channels[3].mapping.invert && channels[3].mapping.safeValue == 1_500_000)
    #expect(channels[4].mapping == .level(.fault, threshold: 0.25, safeValue: true))
    #expect(OutputMapper(channels.map(\.mapping)).safeCommands.count == 5)
}
