import Glibc
import PoiseDeviceSettings
import PoiseLinux
import Testing

// The gamepad reader against the kernel's own evdev: a virtual pad made through /dev/uinput,
// found by name among /dev/input/event*, its events read back through the real system calls,
// unplugged (ENODEV) and plugged in again. Runs where /dev/uinput is writable (root, or the
// uinput group) and skips with the reason elsewhere; the kernel VM reads a uinput pad with
// poise-board instead (scripts/kernel-test's `board-gamepad-uinput`: loading this 100 MB
// bundle under TCG took two minutes).

@Suite(.enabled(if: VirtualGamepad.unavailable == nil, Comment(rawValue: VirtualGamepad.unavailable ?? "")), .serialized)
struct VirtualGamepadTests {
    /// Steps the reader until `done` holds; false after `tries` steps of up to 20 ms. The
    /// limit only ends a broken run: nothing here measures time.
    func step(_ reader: GamepadReader, tries: Int = 500, until done: () -> Bool) -> Bool {
        for _ in 0..<tries {
            if done() { return true }
            let connected = reader.isConnected
            reader.step(wait: 20)
            if !connected { usleep(20_000) }
        }
        return done()
    }

    @Test func aVirtualPadIsFoundByNameReadUnpluggedAndFoundAgain() throws {
        let name = "Poise Test Pad \(getpid())"
        let pad = try VirtualGamepad(name: name)
        let recorder = GamepadRecorder()
        var settings = GamepadSettings()
        settings.name = name
        let reader = GamepadReader(settings: settings, sink: recorder.sink)
        // udev (or devtmpfs) makes the node a moment after UI_DEV_CREATE.
        var connected = false
        for _ in 0..<250 where !connected {
            do { try reader.connect(); connected = true } catch { usleep(20_000) }
        }
        try #require(connected, "the virtual pad never appeared in /dev/input")
        #expect(reader.device?.name == name)

        // Right stick fully up and right, left stick fully up.
        try pad.send([(3, 0x04, -32768), (3, 0x03, 32767), (3, 0x01, -32768)])
        #expect(step(reader) { recorder.sticks.last == .sticks(x: 1, y: 1, z: 1, r: 0, buttons: 0) })
        // Start pressed: one arm request; select: one disarm request.
        try pad.send([(1, 0x13b, 1)])
        try pad.send([(1, 0x13b, 0)])
        try pad.send([(1, 0x13a, 1)])
        #expect(step(reader) { recorder.items.contains(.arm(false)) })
        #expect(recorder.items.filter { $0 == .arm(true) || $0 == .arm(false) } == [.arm(true), .arm(false)])

        // Unplugged: the kernel answers ENODEV; the sticks stop.
        pad.destroy()
        #expect(step(reader) { !reader.isConnected })
        #expect(recorder.log.first?.contains("disconnected") == true)
        #expect(recorder.log.first?.contains("ENODEV") == true)
        let handedOn = recorder.sticks.count
        _ = step(reader, tries: 10) { false }
        #expect(recorder.sticks.count == handedOn)

        // Plugged in again (another event number, perhaps): found by its name.
        let again = try VirtualGamepad(name: name)
        defer { again.destroy() }
        #expect(step(reader) { reader.isConnected })
        #expect(recorder.log.last?.contains("connected again") == true)
        try again.send([(3, 0x00, 32767)])
        #expect(step(reader) { recorder.sticks.last == .sticks(x: 0, y: 0, z: 0.5, r: 1, buttons: 0) })
    }
}
