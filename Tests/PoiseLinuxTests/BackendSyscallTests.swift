import PoiseHAL
import PoiseLinux
import Testing

// The sysfs PWM and libgpiod backends over a mocked kernel: the calls they make, and EINTR
// retried once, in the syscall layer.

@Test func aDutyCycleWriteIsOnePwriteAtOffsetZeroRetriedWhenInterrupted() {
    var interrupted = false
    let mock = SyscallMock { call in
        guard call.name == "pwrite", !interrupted else { return .success }
        interrupted = true
        return .failure(.interrupted)
    }
    var files = LinuxPWMFiles()
    let failure: Errno? = mock.run {
        var text = DecimalText(1_500_000)
        return text.withBytes { files.write(7, $0) }
    }
    #expect(failure == nil)
    let write = SyscallMock.Call("pwrite", 7, .bytes(Array("1500000\n".utf8)), 0)
    #expect(mock.calls == [write, write])
}

@Test func aShortOrFailedSysfsWriteReportsItsErrno() {
    var files = LinuxPWMFiles()
    let short = SyscallMock { _ in .returns(3) }
    #expect(short.run { DecimalText.write(1000, to: &files) } == .ioError)
    let rejected = SyscallMock { _ in .failure(.invalidArgument) }
    #expect(rejected.run { DecimalText.write(1000, to: &files) } == .invalidArgument)
    #expect(rejected.calls.count == 1)
}

@Test func openingASysfsAttributeIsWriteOnlyCloseOnExec() {
    var files = LinuxPWMFiles()
    let mock = SyscallMock()
    let opened = mock.run { files.openForWriting("/sys/class/pwm/pwmchip0/pwm0/duty_cycle") }
    #expect(opened == .success(100))
    // O_WRONLY | O_CLOEXEC on Linux.
    #expect(mock.calls == [.init("open", "/sys/class/pwm/pwmchip0/pwm0/duty_cycle", .int(0o2_000_001))])
}

@Test func aGPIORequestOpensTheChipGetsTheLineAndRequestsItAsOutput() {
    let mock = SyscallMock()
    var device = LinuxGPIODevice()
    let request = GPIOLineRequest(chip: "pinctrl-rp1", line: 17, activeLow: true, drive: .openDrain, initialValue: true)
    mock.run {
        guard case .success(let handle) = device.requestOutput(request) else { return }
        _ = device.setValue(handle, false)
        device.release(handle)
    }
    // Handles 100 (chip) and 101 (line); output = 3, flags open drain (1) | active low (4).
    #expect(mock.calls == [
        .init("gpiod_chip_open_lookup", "pinctrl-rp1"),
        .init("gpiod_chip_get_line", 100, 17),
        .init("gpiod_line_request", 101, "poise", 3, 5, 1),
        .init("gpiod_line_set_value", 101, 0),
        .init("gpiod_line_release", 101),
        .init("gpiod_chip_close", 100),
    ])
}

@Test func aBusyGPIOLineNamesItsHolder() {
    let mock = SyscallMock { call in
        switch call.name {
        case "gpiod_line_request": .failure(.resourceBusy)
        case "gpiod_line_consumer": .reads(Array("pigpiod".utf8))
        default: .success
        }
    }
    var device = LinuxGPIODevice()
    let result = mock.run { device.requestOutput(GPIOLineRequest(chip: "gpiochip0", line: 18)) }
    #expect(result == .failure(GPIORequestFailure(.requestOutput, errno: .resourceBusy, holder: "pigpiod")))
    #expect(mock.calls.map(\.name) == ["gpiod_chip_open_lookup", "gpiod_chip_get_line", "gpiod_line_request",
                                       "gpiod_line_update", "gpiod_line_consumer", "gpiod_chip_close"])
}

@Test func aMissingGPIOChipFailsAtTheLookup() {
    let mock = SyscallMock { call in call.name == "gpiod_chip_open_lookup" ? .failure(.noSuchFileOrDirectory) : .success }
    var device = LinuxGPIODevice()
    let result = mock.run { device.requestOutput(GPIOLineRequest(chip: "gpiochip9", line: 1)) }
    #expect(result == .failure(GPIORequestFailure(.openChip, errno: .noSuchFileOrDirectory)))
    #expect(mock.calls.count == 1)
}

extension DecimalText {
    /// One duty-cycle write of `value` through `files`.
    static func write(_ value: UInt64, to files: inout LinuxPWMFiles) -> Errno? {
        var text = DecimalText(value)
        return text.withBytes { files.write(3, $0) }
    }
}
