import PoiseDeviceSettings
import PoiseFlightCore
import PoiseHAL

extension MPU9250Settings {
    /// The sentences for `notices`, each with how serious it is (the driver's log levels).
    public func messages(for notices: SensorNotices) -> [(error: Bool, text: String)] {
        var out: [(error: Bool, text: String)] = []
        let kinds = notices.kinds
        let reason = notices.errno == 0 ? "" : ": " + Self.describe(errno: notices.errno)
        if kinds.contains(.saturated) {
            out.append((false, "accel or gyro saturated: motion exceeds ±\(Int(accelerometerRange.g)) g / ±\(Int(gyroscopeRange.degreesPerSecond)) °/s; widen the range"))
        }
        if kinds.contains(.backInRange) { out.append((false, "accel and gyro back within range")) }
        if kinds.contains(.readFailed) {
            out.append((false, "read failed after \(retries + 1) attempts (burst at 0x3B from \(Self.hexadecimal(address))), retrying next tick\(reason)"))
        }
        if kinds.contains(.lostAfterFailedReads) {
            out.append((true, "sensor lost: \(notices.failures) consecutive failed reads\(reason); re-initialising every \(reinitInterval) s"))
        }
        if kinds.contains(.lostStuckData) {
            out.append((true, "sensor lost: stuck data: \(notices.failures) identical reads in a row; re-initialising every \(reinitInterval) s"))
        }
        if kinds.contains(.chipReset) {
            let register = notices.register
            let name = MPU9250Register(rawValue: register).map { "\($0.datasheetName) (\(hex(register)))" } ?? hex(register)
            let purpose = fullConfigurationTable.first { $0.register.rawValue == register }.map { " (\($0.purpose))" } ?? ""
            out.append((true, "chip reset: \(name) reads \(hex(notices.found)), configured \(hex(notices.expected))\(purpose): the chip is back at its power-on values (a brown-out?); failsafe, re-configuring in \(reinitInterval) s"))
        }
        if kinds.contains(.magnetometerStopped) {
            out.append((false, "the AK8963 stopped answering\(reason); continuing 6D without the magnetometer"))
        }
        if kinds.contains(.magnetometerSilent) {
            out.append((false, "the AK8963 produced no data in \(notices.failures) reads; continuing 6D without the magnetometer"))
        }
        return out
    }

    static func hexadecimal(_ value: UInt8) -> String {
        "0x" + String(value, radix: 16, uppercase: true)
    }

    static func describe(errno code: Int32) -> String {
        let e = Errno(rawValue: code)
        return "\(e.description) (\(e.symbolicName))"
    }
}
