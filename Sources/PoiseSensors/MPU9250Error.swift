import PoiseFlightCore
import PoiseHAL

/// Why the MPU-9250 driver could not start the chip, or gave up on it: a typed fault, so
/// callers and tests match on the case; the sentence is built only when asked for.
public enum MPU9250Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// Writing H_RESET failed.
    case reset(I2CError)
    /// Reading WHO_AM_I failed: nothing answered at the address.
    case noAnswer(I2CError)
    /// WHO_AM_I named a chip that is neither an MPU-9250 nor a relative.
    case whoAmI(UInt8, address: UInt8)
    /// Writing a register of the configuration table failed.
    case configurationWrite(RegisterSetting, I2CError)
    /// Reading a register of the configuration table back failed.
    case configurationReadback(RegisterSetting, I2CError)
    /// A register of the configuration table read back `read`, not its value.
    case configurationMismatch(RegisterSetting, read: UInt8)
    /// Resetting the FIFO failed.
    case fifoReset(I2CError)
    /// The running path gave up: `count` ticks in a row failed to read, the last with `errno`.
    case failedReads(count: Int, errno: Errno)
    /// The running path gave up: the same 14 bytes `count` times in a row.
    case stuckData(count: Int)
    /// The running path found configuration register `register` reading `read` where it
    /// was configured to `expected` (under its mask): the chip reset itself.
    case chipReset(register: UInt8, expected: UInt8, read: UInt8)

    public var description: String {
        switch self {
        case .reset(let error):
            "reset failed: \(error)"
        case .noAnswer(let error):
            "no answer at \(hex(error.address ?? 0)) on \(error.bus): \(error)"
        case let .whoAmI(value, address):
            "the chip at \(hex(address)) answered WHO_AM_I \(hex(value)), not an MPU-9250 (0x71) or a relative"
        case let .configurationWrite(setting, error):
            "configuring \(setting.purpose): \(error)"
        case let .configurationReadback(setting, error):
            "verifying \(setting.purpose): \(error)"
        case let .configurationMismatch(setting, read):
            "configuration did not stick: \(setting.purpose): \(hex(setting.register.rawValue)) reads \(hex(read)), expected \(hex(setting.value))"
        case .fifoReset(let error):
            "resetting the FIFO: \(error)"
        case let .failedReads(count, errno):
            "sensor lost: \(count) consecutive failed reads" + (errno.rawValue == 0 ? "" : ": \(errno.description) (\(errno.symbolicName))")
        case .stuckData(let count):
            "sensor lost: stuck data: \(count) identical reads in a row"
        case let .chipReset(register, expected, read):
            "chip reset: register \(hex(register)) reads \(hex(read)), configured \(hex(expected))"
        }
    }
}

/// Why the driver runs without the AK8963 magnetometer (6D).
public enum AK8963Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// Setting it up failed: nothing answered (or stopped answering) at 0x0C.
    case noAnswer(I2CError)
    /// The device at 0x0C answered WIA with this value, not the AK8963's 0x48.
    case deviceID(UInt8)
    /// The running path gave up: reads kept failing, the last with `errno`.
    case stopped(errno: Errno)
    /// The running path gave up: no data in `reads` reads.
    case silent(reads: Int)

    public var description: String {
        switch self {
        case .noAnswer(let error):
            "no AK8963 answered at \(hex(AK8963.address)) (\(error))"
        case .deviceID(let value):
            "the device at \(hex(AK8963.address)) answered WIA \(hex(value)), not an AK8963 (0x48)"
        case .stopped(let errno):
            "the AK8963 stopped answering" + (errno.rawValue == 0 ? "" : ": \(errno.description) (\(errno.symbolicName))")
        case .silent(let reads):
            "the AK8963 produced no data in \(reads) reads"
        }
    }
}

extension SensorNotices {
    /// The fault a loss notice stands for (nil when it declares none).
    var driverFault: MPU9250Error? {
        if kinds.contains(.lostAfterFailedReads) {
            return .failedReads(count: Int(failures), errno: Errno(rawValue: errno))
        }
        if kinds.contains(.lostStuckData) { return .stuckData(count: Int(failures)) }
        if kinds.contains(.chipReset) { return .chipReset(register: register, expected: expected, read: found) }
        return nil
    }

    /// The magnetometer fault a loss notice stands for (nil when it declares none).
    var magnetometerFault: AK8963Error? {
        if kinds.contains(.magnetometerStopped) { return .stopped(errno: Errno(rawValue: errno)) }
        if kinds.contains(.magnetometerSilent) { return .silent(reads: Int(failures)) }
        return nil
    }
}
