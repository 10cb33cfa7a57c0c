import PoiseDeviceSettings
import PoiseLinux
import PoiseHAL
import Testing

// The gamepad reader over a mocked kernel (FakeEvdevKernel): opening by path and by name,
// the ranges asked with EVIOCGABS, events decoded and normalised, button presses, a
// disconnect (ENODEV) and the reconnection, and the errors a user meets.

let absolute: UInt16 = 3, key: UInt16 = 1, sync: UInt16 = 0
let btnSouth: UInt16 = 0x130, btnSelect: UInt16 = 0x13a, btnStart: UInt16 = 0x13b

func xboxKernel(at path: String = "/dev/input/event3", name: String = "Xbox Wireless Controller") -> FakeEvdevKernel {
    let kernel = FakeEvdevKernel()
    kernel.devices["/dev/input/event0"] = .init(name: "Power Button", ranges: [:])
    kernel.devices[path] = .init(name: name, ranges: FakeEvdevKernel.xboxRanges())
    return kernel
}

func byName(_ name: String = "Xbox Wireless Controller") -> GamepadSettings {
    var settings = GamepadSettings()
    settings.name = name
    return settings
}

@Test func aGamepadFoundByNameIsOpenedReadOnlyNonBlockingAndItsMappedAxesAsked() throws {
    let kernel = xboxKernel()
    let recorder = GamepadRecorder()
    let reader = GamepadReader(settings: byName(), sink: recorder.sink)
    try kernel.mock.run { try reader.connect() }
    #expect(reader.device?.path == "/dev/input/event3")
    // O_RDONLY | O_NONBLOCK | O_CLOEXEC.
    #expect(kernel.mock.calls(named: "open").last == SyscallMock.Call("open", "/dev/input/event3", 0o2_004_000))
    let asked = kernel.mock.calls(named: "ioctl").filter { $0.arguments[1] == "EVIOCGABS" }.map { $0.arguments[2] }
    #expect(asked == [4, 3, 1, 0])  // ABS_RY, ABS_RX, ABS_Y, ABS_X: x, y, z, r
}

@Test func sticksAreNormalisedWithTheReportedRangesAndHandedOnAtEachReport() throws {
    let kernel = xboxKernel()
    let recorder = GamepadRecorder()
    let clock = TestClock()
    let reader = GamepadReader(settings: byName(), clock: clock.read, sink: recorder.sink)
    try kernel.mock.run { try reader.connect() }
    // Right stick fully up (Linux: the minimum) and right; left stick fully up; left stick x a quarter left.
    kernel.send("/dev/input/event3", [(absolute, 4, -32768), (absolute, 3, 32767), (absolute, 1, -32768),
                                      (absolute, 0, -16384), (sync, 0, 0)])
    kernel.mock.run { reader.step(wait: 0) }
    guard case .sticks(let x, let y, let z, let r, _) = recorder.sticks.last else { Issue.record("no sticks"); return }
    #expect(x == 1)
    #expect(y == 1)
    #expect(z == 1)
    // −16384 of −32768…32767 is −0.50001 of half the travel; 5 % deadzone rescaled: −0.4737.
    #expect(abs(r - (-0.50001 + 0.05) / 0.95) < 1e-4)
}

@Test func aZeroToTwoFiftyFiveAxisIsCentredAtItsMiddle() {
    let range = EvdevAxisRange(minimum: 0, maximum: 255)
    #expect(GamepadDecoder.normalise(0, range, inverted: false, deadzone: 0) == -1)
    #expect(GamepadDecoder.normalise(255, range, inverted: false, deadzone: 0) == 1)
    #expect(GamepadDecoder.normalise(128, range, inverted: false, deadzone: 0.05) == 0)
    #expect(GamepadDecoder.normalise(0, range, inverted: true, deadzone: 0) == 1)
    // Beyond the range (a pad whose reported range is too small) is clamped.
    #expect(GamepadDecoder.normalise(300, range, inverted: false, deadzone: 0) == 1)
    // A degenerate range reads centred.
    #expect(GamepadDecoder.normalise(5, EvdevAxisRange(minimum: 5, maximum: 5), inverted: false, deadzone: 0) == 0)
}

@Test func theDeadzoneHoldsTheCentreAndFullTravelStillReachesOne() {
    let range = EvdevAxisRange(minimum: -32768, maximum: 32767)
    for deadzone: Float in [0, 0.05, 0.2, 0.5] {
        var previous: Float = -2
        for value in stride(from: -32768, through: 32767, by: 97) {
            let n = GamepadDecoder.normalise(Int32(value), range, inverted: false, deadzone: deadzone)
            #expect(n >= previous)  // monotonic
            #expect(abs(n) <= 1)
            let raw = (Double(value) + 0.5) / 32767.5
            if abs(raw) <= Double(deadzone) { #expect(n == 0) }
            previous = n
        }
        #expect(GamepadDecoder.normalise(-32768, range, inverted: false, deadzone: deadzone) == -1)
        #expect(GamepadDecoder.normalise(32767, range, inverted: false, deadzone: deadzone) == 1)
    }
}

@Test func armAndDisarmAreOnePressEachAndButtonsAreBits() throws {
    let kernel = xboxKernel()
    let recorder = GamepadRecorder()
    let reader = GamepadReader(settings: byName(), sink: recorder.sink)
    try kernel.mock.run { try reader.connect() }
    kernel.send("/dev/input/event3", [(key, btnStart, 1), (sync, 0, 0), (key, btnStart, 2), (sync, 0, 0),
                                      (key, btnStart, 0), (sync, 0, 0), (key, btnStart, 1), (key, btnSouth, 1), (sync, 0, 0),
                                      (key, btnSelect, 1), (sync, 0, 0)])
    kernel.mock.run { reader.step(wait: 0) }
    #expect(recorder.items.filter { $0 == .arm(true) || $0 == .arm(false) } == [.arm(true), .arm(true), .arm(false)])
    // BTN_SOUTH is bit 0, BTN_SELECT bit 10, BTN_START bit 11.
    guard case .sticks(_, _, _, _, let buttons) = recorder.sticks.last else { Issue.record("no sticks"); return }
    #expect(buttons == 1 << 0 | 1 << 10 | 1 << 11)
}

@Test func anArmButtonHeldWhenThePadConnectsIsNoPress() throws {
    let kernel = xboxKernel()
    kernel.devices["/dev/input/event3"]!.held = [btnStart]
    let recorder = GamepadRecorder()
    let reader = GamepadReader(settings: byName(), sink: recorder.sink)
    try kernel.mock.run { try reader.connect() }
    kernel.send("/dev/input/event3", [(key, btnStart, 1), (sync, 0, 0)])
    kernel.mock.run { reader.step(wait: 0) }
    #expect(!recorder.items.contains(.arm(true)))
}

@Test func sticksHeldStillAreHandedOnAgainEveryFiftyMilliseconds() throws {
    let kernel = xboxKernel()
    let recorder = GamepadRecorder()
    let clock = TestClock()
    let reader = GamepadReader(settings: byName(), clock: clock.read, sink: recorder.sink)
    try kernel.mock.run { try reader.connect() }
    for _ in 0..<20 {
        kernel.mock.run { reader.step(wait: 0) }
        clock.now += 1.0 / 64
    }
    // 0.3 s of no events, a step every 1/64 s: handed on at 0, 4/64, 8/64, 12/64 and 16/64 s.
    #expect(recorder.sticks.count == 5)
}

@Test func aDroppedBufferIsReadAgainFromTheDevice() throws {
    let kernel = xboxKernel()
    let recorder = GamepadRecorder()
    let reader = GamepadReader(settings: byName(), sink: recorder.sink)
    try kernel.mock.run { try reader.connect() }
    // The kernel dropped events; the device's state now: right stick fully down.
    kernel.devices["/dev/input/event3"]!.ranges[4]!.value = 32767
    kernel.send("/dev/input/event3", [(sync, 3, 0), (absolute, 4, -32768), (sync, 0, 0)])
    kernel.mock.run { reader.step(wait: 0) }
    guard case .sticks(let x, _, _, _, _) = recorder.sticks.last else { Issue.record("no sticks"); return }
    #expect(x == -1)  // read again with EVIOCGABS, not the stale event before the report
}

@Test func aDisconnectStopsTheSticksAndTheSameNameIsFoundAgainWithBackoff() throws {
    let kernel = xboxKernel()
    let recorder = GamepadRecorder()
    let clock = TestClock()
    let reader = GamepadReader(settings: byName(), clock: clock.read, sink: recorder.sink)
    try kernel.mock.run { try reader.connect() }
    kernel.mock.run { reader.step(wait: 0) }
    let before = recorder.sticks.count
    // Unplugged: poll reports a hang-up, read fails with ENODEV, the file goes.
    kernel.unplugged.insert("/dev/input/event3")
    kernel.devices["/dev/input/event3"] = nil
    for _ in 0..<100 {
        clock.now += 0.01
        kernel.mock.run { reader.step(wait: 0) }
    }
    #expect(!reader.isConnected)
    #expect(recorder.sticks.count == before)  // nothing fresh for the loop: its setpoint timeout fires
    #expect(recorder.log.first?.contains("\"Xbox Wireless Controller\" (/dev/input/event3) disconnected") == true)
    #expect(recorder.log.first?.contains("ENODEV") == true)
    #expect(recorder.log.contains { $0.contains("no input device named \"Xbox Wireless Controller\"") })
    // Back, as another event number.
    kernel.devices["/dev/input/event7"] = .init(name: "Xbox Wireless Controller", ranges: FakeEvdevKernel.xboxRanges())
    for _ in 0..<300 where !reader.isConnected {
        clock.now += 0.01
        kernel.mock.run { reader.step(wait: 0) }
    }
    #expect(reader.device?.path == "/dev/input/event7")
    #expect(recorder.log.last?.contains("connected again") == true)
    #expect(recorder.sticks.count == before + 1)
    // Tries: after 0.25 s, then waits of 0.25, 0.5, 1, 2, 2, … s: few tries, not one per step.
    #expect(kernel.mock.calls(named: "readdir").count <= 8)
}

/// Why `reader` could not connect, or nil.
func failure(_ kernel: FakeEvdevKernel, _ settings: GamepadSettings) -> GamepadError? {
    let reader = GamepadReader(settings: settings, sink: GamepadRecorder().sink)
    return kernel.mock.run { () -> GamepadError? in
        do throws(GamepadError) { try reader.connect(); return nil } catch { return error }
    }
}

@Test func theErrorsSayWhatToDo() {
    let kernel = xboxKernel()
    // Missing.
    var settings = GamepadSettings()
    settings.device = "/dev/input/event9"
    #expect(failure(kernel, settings) == .cannotOpen(path: "/dev/input/event9", errno: .noSuchFileOrDirectory))
    #expect(failure(kernel, settings)?.description
        == "gamepad: /dev/input/event9 does not exist (is the gamepad connected? `poise gamepad` lists the input devices)")
    // No permission: the group to join, also when looked for by name.
    kernel.devices["/dev/input/event3"]!.openError = .permissionDenied
    let denied = failure(kernel, byName())?.description ?? ""
    #expect(denied.contains("no permission to read /dev/input/event3"))
    #expect(denied.contains("group `input`"))
    kernel.devices["/dev/input/event3"]!.openError = nil
    // Not a gamepad: no absolute axes.
    settings.device = "/dev/input/event0"
    #expect(failure(kernel, settings) == .notAGamepad(path: "/dev/input/event0", name: "Power Button"))
    // A name nothing has: the names there are.
    #expect(failure(kernel, byName("8BitDo"))?.description
        == "gamepad: no input device named \"8BitDo\"; the devices are: \"Power Button\", \"Xbox Wireless Controller\"")
    // A mapped axis the pad lacks.
    var hat = byName()
    hat.r = GamepadStick(axis: .hat0x)
    #expect(failure(kernel, hat)?.description.contains(
        "has no ABS_HAT0X axis (input.gamepad.r_axis); its axes: ABS_X, ABS_Y, ABS_Z, ABS_RX, ABS_RY, ABS_RZ") == true)
}

@Test func aStructInputEventIsTwentyFourBytes() {
    #expect(EvdevEvent.size == 24)
}
