import PoiseControl
import PoiseFlightCore
import PoiseHAL
import PoiseOutputs
import PoiseSimulation
import Testing

typealias SimBank = OutputBank<SimulatedGPIODevice, SimulatedPWMFiles>

/// A balancing robot's H-bridge on sysfs PWM + GPIO, and four ESCs on the PCA9685 at 400 Hz.
func mixedChannels() -> [OutputChannelSpec] {
    [
        OutputChannelSpec(name: "left_pwm", hardware: .pwm(chip: 0, channel: 0, periodNanoseconds: 50_000, polarity: .normal),
                          mapping: .duty(.leftWheelDuty, periodMicroseconds: 50)),
        OutputChannelSpec(name: "right_pwm", hardware: .pwm(chip: 0, channel: 1, periodNanoseconds: 50_000, polarity: .inversed),
                          mapping: .duty(.rightWheelDuty, periodMicroseconds: 50)),
        OutputChannelSpec(name: "left_in1", hardware: .gpio(GPIOLineRequest(chip: "pinctrl-rp1", line: 5)),
                          mapping: .level(.leftWheelForward)),
        OutputChannelSpec(name: "stby", hardware: .gpio(GPIOLineRequest(chip: "gpiochip0", line: 6, activeLow: true, drive: .openDrain)),
                          mapping: .level(.armed)),
    ] + (0..<4).map { motor in
        OutputChannelSpec(name: "esc\(motor + 1)", hardware: .pca9685(channel: motor * 2),
                          mapping: .pulse(OutputSignal.allCases[motor], periodMicroseconds: 2500,
                                          minMicroseconds: 1000, maxMicroseconds: 2000))
    }
}

func openBank(_ channels: [OutputChannelSpec] = mixedChannels(), frequency: Double = 400,
              gpio: SimulatedGPIODevice = SimulatedGPIODevice(), bus: inout SimBus) throws -> SimBank {
    let settings = OutputBankSettings(channels: channels, pca9685: PCA9685.Settings(frequencyHz: frequency))
    return try SimBank(settings: settings, gpio: gpio, files: SimulatedPWMFiles(), bus: &bus)
}

@Test func openingPutsEveryChannelAtItsSafeValueWithTheRequestedFlags() throws {
    var bus = simulatedBus()
    let bank = try openBank(bus: &bus)
    #expect(bank.files.highTimeNanoseconds(chip: 0, channel: 0) == 0)
    #expect(bank.files.highTimeNanoseconds(chip: 0, channel: 1) == 50_000, "inversed polarity at duty 0 is high")
    #expect(bank.files.periodNanoseconds(chip: 0, channel: 1) == 50_000)
    let stby = try #require(bank.gpio.lines.first { $0.offset == 6 })
    #expect(stby.activeLow && stby.drive == .openDrain && stby.consumer == "poise" && !stby.value)
    #expect(bank.gpio.pinLevel(chip: "gpiochip0", line: 6) == true, "active low: logical 0 is a high pin")
    #expect((0..<16).allSatisfy { bus.pca9685!.pulseWidthNanoseconds(channel: $0) == 0 })
    #expect(bank.lastWritten == OutputMapper(mixedChannels().map(\.mapping)).safeCommands)
}

@Test func aTickWritesOnlyWhatChangedWithOneTransactionForThePCA9685() throws {
    var bus = simulatedBus()
    var bank = try openBank(bus: &bus)
    var commands = bank.lastWritten
    commands[0] = 25_000   // left_pwm
    commands[2] = 1        // left_in1
    commands[4] = 1_100_000
    commands[5] = 1_200_000
    commands[7] = 1_900_000
    let before = (bank.files.writes, bank.gpio.writes, bus.counters.pca9685Transactions)
    #expect(bank.write(commands, dt: 0.0025, bus: &bus) == nil)
    #expect(bank.files.writes - before.0 == 1, "one pwrite for the one changed PWM channel")
    #expect(bank.gpio.writes - before.1 == 1)
    #expect(bus.counters.pca9685Transactions - before.2 == 1, "one I²C transaction for three PCA9685 channels")
    #expect(bank.files.highTimeNanoseconds(chip: 0, channel: 0) == 25_000)
    #expect(bank.gpio.pinLevel(chip: "pinctrl-rp1", line: 5) == true)
    for (channel, microseconds) in [(0, 1100.0), (2, 1200.0), (6, 1900.0)] {
        #expect(abs(bus.pca9685!.pulseWidthNanoseconds(channel: channel) - microseconds * 1000) < 700)
    }
    // The same commands again: nothing to write.
    let again = (bank.files.writes, bank.gpio.writes, bus.counters.pca9685Transactions)
    #expect(bank.write(commands, dt: 0.0025, bus: &bus) == nil)
    #expect(bank.files.writes == again.0 && bank.gpio.writes == again.1 && bus.counters.pca9685Transactions == again.2)
}

@Test func pca9685IsWrittenNoFasterThanItsFrameRate() throws {
    var bus = simulatedBus()
    var bank = try openBank(frequency: 50, bus: &bus)
    let before = bus.counters.pca9685Transactions
    var commands = bank.lastWritten
    // 400 Hz loop, a new ESC value every tick, for 0.2 s: ten 20 ms frames.
    for tick in 0..<80 {
        commands[4] = 1_000_000 + UInt32(tick) * 1000
        #expect(bank.write(commands, dt: 0.0025, bus: &bus) == nil)
    }
    #expect(bus.counters.pca9685Transactions - before == 10)
    // The newest value reached the chip at the last frame.
    #expect(abs(bus.pca9685!.pulseWidthNanoseconds(channel: 0) - 1_079_000) < 4900, "the newest value went out with the last frame")
}

@Test func driveSafeUsesAllLEDOffWhenEveryPCA9685SafeValueIsZero() throws {
    var bus = simulatedBus()
    var bank = try openBank(bus: &bus)
    var commands = bank.lastWritten
    for index in 4..<8 { commands[index] = 1_500_000 }
    commands[0] = 40_000
    commands[3] = 1
    _ = bank.write(commands, dt: 0.0025, bus: &bus)
    let allOff = bus.pca9685!.counters.allOffWrites
    #expect(bank.driveSafe(bus: &bus) == nil)
    #expect(bus.pca9685!.counters.allOffWrites == allOff + 1)
    #expect((0..<16).allSatisfy { bus.pca9685!.pulseWidthNanoseconds(channel: $0) == 0 })
    #expect(bank.files.highTimeNanoseconds(chip: 0, channel: 0) == 0)
    #expect(bank.gpio.pinLevel(chip: "gpiochip0", line: 6) == true)
}

@Test func driveSafeHoldsAnESCAtItsSafePulse() throws {
    var bus = simulatedBus()
    let channels = [OutputChannelSpec(name: "esc", hardware: .pca9685(channel: 15),
                                      mapping: .pulse(.motor1, periodMicroseconds: 2500, minMicroseconds: 1000,
                                                      maxMicroseconds: 2000, safeMicroseconds: 1000))]
    var bank = try openBank(channels, bus: &bus)
    #expect(abs(bus.pca9685!.pulseWidthNanoseconds(channel: 15) - 1_000_000) < 700, "opened at its safe pulse")
    var commands = bank.lastWritten
    commands[0] = 1_800_000
    _ = bank.write(commands, dt: 0.0025, bus: &bus)
    #expect(bank.driveSafe(bus: &bus) == nil)
    #expect(abs(bus.pca9685!.pulseWidthNanoseconds(channel: 15) - 1_000_000) < 700)
}

@Test func aBusyLineNamesItsHolderAndNothingStaysOpen() throws {
    var bus = simulatedBus()
    var gpio = SimulatedGPIODevice()
    gpio.heldBy["gpiochip0:6"] = "pigpiod"
    let error = #expect(throws: OutputError.self) { _ = try openBank(gpio: gpio, bus: &bus) }
    #expect(error?.description == "output stby (gpiochip0 line 6): request as output gpiochip0 line 6: Device or resource busy (EBUSY); the line is held by \"pigpiod\" (see `gpioinfo gpiochip0`)")
}

@Test func aMissingChipIsNamed() throws {
    var bus = simulatedBus()
    let channels = [OutputChannelSpec(name: "led", hardware: .gpio(GPIOLineRequest(chip: "gpiochip9", line: 1)),
                                      mapping: .level(.fault))]
    let error = #expect(throws: OutputError.self) { _ = try openBank(channels, bus: &bus) }
    #expect(error?.description.hasPrefix("output led (gpiochip9 line 1): open chip gpiochip9: No such file or directory (ENOENT); list chips") == true)
}

@Test func aFailedWriteIsAFaultNamingTheChannelAndTheRestAreStillWritten() throws {
    var bus = simulatedBus()
    var bank = try openBank(bus: &bus)
    var commands = bank.lastWritten
    commands[1] = 10_000
    commands[2] = 1
    commands[4] = 1_700_000
    bank.files.failWrites = .ioError
    bus.pca9685!.absent = true
    let fault = try #require(bank.write(commands, dt: 0.0025, bus: &bus))
    #expect(fault.channel == 1 && fault.errno == .ioError)
    #expect(bank.describe(fault).description == "output right_pwm (pwmchip0/pwm1): /sys/class/pwm/pwmchip0/pwm1/duty_cycle: cannot write \"0\": Input/output error (EIO)")
    #expect(bank.gpio.pinLevel(chip: "pinctrl-rp1", line: 5) == true, "the GPIO line was still written")
    bank.files.failWrites = nil
    let second = try #require(bank.write(commands, dt: 0.0025, bus: &bus), "the PCA9685 keeps failing")
    #expect(second.channel == 4 && second.errno == .remoteIO)
    #expect(bank.describe(second).description.hasPrefix("output esc1 (PCA9685 channel 0): I²C write to the PCA9685 failed"))
    #expect(bank.files.highTimeNanoseconds(chip: 0, channel: 1) == 40_000, "the PWM channel was retried (inversed)")
    bus.pca9685!.absent = false
    #expect(bank.write(commands, dt: 0.0025, bus: &bus) == nil, "pending PCA9685 channels are retried")
    #expect(abs(bus.pca9685!.pulseWidthNanoseconds(channel: 0) - 1_700_000) < 700)
    #expect(bank.counters.faults == 2)
}

@Test func releaseLeavesLinesAtTheirSafeLevelAndUnexportsPWM() throws {
    var bus = simulatedBus()
    var bank = try openBank(bus: &bus)
    var commands = bank.lastWritten
    commands[2] = 1
    commands[0] = 30_000
    _ = bank.write(commands, dt: 0.0025, bus: &bus)
    #expect(bank.release(unexport: true, bus: &bus).isEmpty)
    #expect(bank.gpio.lines.allSatisfy { !$0.requested && !$0.value })
    #expect(bank.files.highTimeNanoseconds(chip: 0, channel: 0) == 0)
    #expect(!bank.files.exists("/sys/class/pwm/pwmchip0/pwm0"), "unexported")
    #expect(bank.files.openDescriptors == 0)
}

@Test func sysfsWritesComeInAnOrderTheKernelAccepts() throws {
    var files = SimulatedPWMFiles()
    files.recording = true
    // A channel left running by a crashed run: enabled, long duty, inversed.
    _ = try SysfsPWMChannel(chip: 0, channel: 0, periodNanoseconds: 20_000_000, polarity: .inversed,
                            safeDutyNanoseconds: 15_000_000, files: &files)
    let shorter = try SysfsPWMChannel(chip: 0, channel: 0, periodNanoseconds: 1_000_000, polarity: .normal,
                                      safeDutyNanoseconds: 500_000, files: &files)
    #expect(files.log.suffix(6) == [
        "pwmchip0/pwm0/enable=0", "pwmchip0/pwm0/polarity=normal", "pwmchip0/pwm0/duty_cycle=0",
        "pwmchip0/pwm0/period=1000000", "pwmchip0/pwm0/duty_cycle=500000", "pwmchip0/pwm0/enable=1",
    ])
    #expect(files.highTimeNanoseconds(chip: 0, channel: 0) == 500_000)
    #expect(shorter.setDuty(nanoseconds: 2_000_000, files: &files) == nil, "clamped to the period, so accepted")
}

@Test func sensorAndPCA9685ShareOneBus() throws {
    var bus = simulatedBus()
    var bank = try openBank(bus: &bus)
    var commands = bank.lastWritten
    let imuBefore = bus.counters.imuTransactions
    let bitsBefore = bus.counters.bitPeriods
    var buffer = InlineArray<14, UInt8>(repeating: 0)
    for tick in 0..<8 {
        try withUnsafeMutableBytes(of: &buffer) { raw in
            try bus.writeThenRead(address: 0x68, register: 0x3B, into: raw)
        }
        commands[4] = 1_000_000 + UInt32(tick) * 10_000
        _ = bank.write(commands, dt: 0.0025, bus: &bus)
    }
    #expect(bus.counters.imuTransactions - imuBefore == 8)
    #expect(bus.imu.counters.burstReads == 8)
    // docs/wiring.md: a 14-byte burst is 156 bit periods, one PCA9685 channel 20 + 36 = 56.
    #expect(bus.counters.bitPeriods - bitsBefore == 8 * (156 + 56))
}

@Test func simulatedHardwareIsSizedForTheChannels() throws {
    var bus = simulatedBus()
    let channels = [
        OutputChannelSpec(name: "a", hardware: .pwm(chip: 2, channel: 5, periodNanoseconds: 1_000_000, polarity: .normal),
                          mapping: .duty(.motor1, periodMicroseconds: 1000, safeDuty: 0.5)),
        OutputChannelSpec(name: "b", hardware: .gpio(GPIOLineRequest(chip: "pinctrl-rp1", line: 40)), mapping: .level(.armed)),
        OutputChannelSpec(name: "c", hardware: .gpio(GPIOLineRequest(chip: "/dev/gpiochip3", line: 1)), mapping: .level(.fault)),
    ]
    let bank = try SimulatedOutputBank(simulating: OutputBankSettings(channels: channels), bus: &bus)
    #expect(bank.files.highTimeNanoseconds(chip: 2, channel: 5) == 500_000)
    #expect(bank.gpio.pinLevel(chip: "pinctrl-rp1", line: 40) == false)
    #expect(bank.gpio.pinLevel(chip: "gpiochip3", line: 1) == false)
}
