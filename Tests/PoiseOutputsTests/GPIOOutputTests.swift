import PoiseHAL
import PoiseLinux
import PoiseSimulation
import Testing

@Test func requestPassesFlagsAndStartsAtTheSafeValue() throws {
    var device = SimulatedGPIODevice()
    let line = try GPIOOutput(GPIOLineRequest(chip: "pinctrl-rp1", line: 4, activeLow: true, drive: .openSource,
                                              initialValue: true), device: &device)
    let state = try #require(device.lines.first)
    #expect(state.chip == "gpiochip0" && state.offset == 4 && state.consumer == "poise")
    #expect(state.activeLow && state.drive == .openSource && state.value)
    #expect(device.pinLevel(chip: "gpiochip0", line: 4) == false, "logical 1, active low: the pin is low")
    #expect(line.set(false, device: &device) == nil)
    #expect(device.pinLevel(chip: "pinctrl-rp1", line: 4) == true)
    line.release(device: &device)
    #expect(device.lines[0].value && !device.lines[0].requested, "released at its safe value")
}

@Test(arguments: ["gpiochip0", "/dev/gpiochip0", "0", "pinctrl-rp1"])
func chipsAreFoundByNamePathNumberOrLabel(_ chip: String) throws {
    var device = SimulatedGPIODevice()
    _ = try GPIOOutput(GPIOLineRequest(chip: chip, line: 17), device: &device)
    #expect(device.lines.first?.chip == "gpiochip0")
}

@Test func aBusyLineNamesItsHolder() {
    var device = SimulatedGPIODevice()
    device.heldBy["gpiochip0:17"] = "sysfs"
    let error = #expect(throws: GPIOError.self) {
        _ = try GPIOOutput(GPIOLineRequest(chip: "gpiochip0", line: 17), device: &device)
    }
    #expect(error?.holder == "sysfs")
    #expect(error?.description == "request as output gpiochip0 line 17: Device or resource busy (EBUSY); the line is held by \"sysfs\" (see `gpioinfo gpiochip0`)")
}

@Test func aLineAlreadyRequestedByPoiseIsBusyToo() throws {
    var device = SimulatedGPIODevice()
    _ = try GPIOOutput(GPIOLineRequest(chip: "gpiochip0", line: 2), device: &device)
    let error = #expect(throws: GPIOError.self) {
        _ = try GPIOOutput(GPIOLineRequest(chip: "gpiochip0", line: 2), device: &device)
    }
    #expect(error?.errno == .resourceBusy && error?.holder == "poise")
}

@Test func realLibgpiodReportsAMissingChip() {
    var device = LinuxGPIODevice()
    let error = #expect(throws: GPIOError.self) {
        _ = try GPIOOutput(GPIOLineRequest(chip: "gpiochip-nonexistent", line: 17), device: &device)
    }
    #expect(error?.description.hasPrefix("open chip gpiochip-nonexistent:") == true)
}
