import CEvdev
import Glibc

/// A gamepad the kernel believes in: a uinput device (`/dev/uinput`) with an Xbox-like pad's
/// axes (−32768…32767) and buttons, whose events the test writes and the kernel delivers
/// through its `/dev/input/eventN` like a real pad's. Destroying it is an unplug.
final class VirtualGamepad {
    static let path = "/dev/uinput"
    let fd: CInt

    /// Why no virtual gamepad can be made here, or nil when one can.
    static var unavailable: String? {
        // Word for word as scripts/allowed-skips.txt lists them.
        if access(path, F_OK) != 0 { return "/dev/uinput is missing (no uinput module; the kernel VM tests a uinput pad with poise-board)" }
        if access(path, W_OK) != 0 { return "/dev/uinput is not writable (needs root or the uinput group; the kernel VM tests a uinput pad with poise-board)" }
        return nil
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ what: String) { description = "uinput: \(what): \(String(cString: strerror(errno)))" }
    }

    static let axes: [UInt16] = [0x00, 0x01, 0x03, 0x04]  // ABS_X, ABS_Y, ABS_RX, ABS_RY
    static let buttons: [UInt16] = [0x130, 0x131, 0x133, 0x134, 0x13a, 0x13b]

    init(name: String) throws {
        fd = open(Self.path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw Failure("open \(Self.path)") }
        do {
            try check(poise_uinput_set_bit(fd, poise_ui_set_evbit(), CInt(EV_KEY)), "UI_SET_EVBIT EV_KEY")
            for button in Self.buttons { try check(poise_uinput_set_bit(fd, poise_ui_set_keybit(), CInt(button)), "UI_SET_KEYBIT") }
            try check(poise_uinput_set_bit(fd, poise_ui_set_evbit(), CInt(EV_ABS)), "UI_SET_EVBIT EV_ABS")
            for axis in Self.axes {
                try check(poise_uinput_set_bit(fd, poise_ui_set_absbit(), CInt(axis)), "UI_SET_ABSBIT")
                var setup = uinput_abs_setup()
                setup.code = axis
                setup.absinfo.minimum = -32768
                setup.absinfo.maximum = 32767
                try check(poise_uinput_abs_setup(fd, &setup), "UI_ABS_SETUP")
            }
            var setup = uinput_setup()
            setup.id.bustype = UInt16(BUS_USB)
            setup.id.vendor = 0x1209  // pid.codes' test vendor
            setup.id.product = 0x0001
            withUnsafeMutableBytes(of: &setup.name) { raw in
                for (index, byte) in name.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
            }
            try check(poise_uinput_setup(fd, &setup), "UI_DEV_SETUP")
            try check(poise_uinput_create(fd), "UI_DEV_CREATE")
        } catch {
            close(fd)
            throw error
        }
    }

    func check(_ result: CInt, _ what: String) throws {
        if result < 0 { throw Failure(what) }
    }

    /// Writes events and a SYN_REPORT.
    func send(_ events: [(type: UInt16, code: UInt16, value: Int32)]) throws {
        for e in events + [(type: UInt16(EV_SYN), code: UInt16(SYN_REPORT), value: Int32(0))] {
            var event = input_event()
            event.type = e.type
            event.code = e.code
            event.value = e.value
            guard write(fd, &event, MemoryLayout<input_event>.size) == MemoryLayout<input_event>.size else { throw Failure("write") }
        }
    }

    /// Unplugs it.
    func destroy() {
        _ = poise_uinput_destroy(fd)
        close(fd)
    }
}
