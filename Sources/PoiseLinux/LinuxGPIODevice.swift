import CGPIOD
import PoiseHAL

/// GPIO lines through libgpiod v1.6 (Debian 12, Raspberry Pi OS bookworm).
///
/// Each requested line keeps its own chip handle, so releasing one line never disturbs
/// another. Chips are found with `gpiod_chip_open_lookup`, which takes a name, number, path
/// or label: on a Raspberry Pi 5 the header lines are on the chip labelled `pinctrl-rp1`
/// (`gpiochip4` on older kernels, `gpiochip0` on current ones), so configure the label.
public struct LinuxGPIODevice: GPIODevice {
    @usableFromInline var chips: [OpaquePointer?] = []
    @usableFromInline var lines: [OpaquePointer?] = []

    public init() {}

    public mutating func requestOutput(_ request: GPIOLineRequest) -> Result<GPIOLineHandle, GPIORequestFailure> {
        let chip: OpaquePointer
        switch request.chip.withCString({ name in pointerOrErrno { system_gpiod_chip_open_lookup(name) } }) {
        case .success(let opened): chip = opened
        case .failure(let errno): return .failure(GPIORequestFailure(.openChip, errno: errno))
        }
        let line: OpaquePointer
        switch pointerOrErrno({ system_gpiod_chip_get_line(chip, request.line) }) {
        case .success(let got): line = got
        case .failure(let errno):
            system_gpiod_chip_close(chip)
            return .failure(GPIORequestFailure(.getLine, errno: errno))
        }
        var flags: CInt = 0
        if request.activeLow { flags |= CInt(GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW) }
        switch request.drive {
        case .pushPull: break
        case .openDrain: flags |= CInt(GPIOD_LINE_REQUEST_FLAG_OPEN_DRAIN)
        case .openSource: flags |= CInt(GPIOD_LINE_REQUEST_FLAG_OPEN_SOURCE)
        }
        let status = request.consumer.withCString { consumer in
            var config = gpiod_line_request_config(
                consumer: consumer, request_type: CInt(GPIOD_LINE_REQUEST_DIRECTION_OUTPUT), flags: flags)
            return valueOrErrno { system_gpiod_line_request(line, &config, request.initialValue ? 1 : 0) }
        }
        if case .failure(let errno) = status {
            var holder: String?
            if errno == .resourceBusy {
                _ = system_gpiod_line_update(line)
                holder = system_gpiod_line_consumer(line).map { String(cString: $0) } ?? "an unnamed user (a kernel driver or sysfs)"
            }
            system_gpiod_chip_close(chip)
            return .failure(GPIORequestFailure(.requestOutput, errno: errno, holder: holder))
        }
        chips.append(chip)
        lines.append(line)
        return .success(GPIOLineHandle(rawValue: lines.count - 1))
    }

    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public mutating func setValue(_ handle: GPIOLineHandle, _ value: Bool) -> Errno? {
        guard let line = lines[handle.rawValue] else { return .badFileDescriptor }
        return Self.setLineValue(line, value)
    }

    public mutating func release(_ handle: GPIOLineHandle) {
        guard let line = lines[handle.rawValue], let chip = chips[handle.rawValue] else { return }
        system_gpiod_line_release(line)
        system_gpiod_chip_close(chip)
        lines[handle.rawValue] = nil
        chips[handle.rawValue] = nil
    }

    /// `gpiod_line_set_value`: one `GPIOHANDLE_SET_LINE_VALUES_IOCTL` on the line's handle,
    /// no allocation inside libgpiod. Excluded from performance analysis like the call itself.
    @usableFromInline @inline(never) @_semantics("no_performance_analysis")
    static func setLineValue(_ line: OpaquePointer, _ value: Bool) -> Errno? {
        switch valueOrErrno({ system_gpiod_line_set_value(line, value ? 1 : 0) }) {
        case .success: nil
        case .failure(let errno): errno
        }
    }
}
